CREATE TABLE "ledger_accounts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"payment_id" uuid,
	"balance" bigint DEFAULT 0 NOT NULL,
	"allow_negative" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_kind_check" CHECK ("ledger_accounts"."kind" in ('outside', 'held', 'driver', 'fees', 'refunds_pending', 'payouts_pending')),
	CONSTRAINT "ledger_accounts_guarded" CHECK ("ledger_accounts"."allow_negative" or "ledger_accounts"."balance" >= 0),
	CONSTRAINT "ledger_accounts_only_outside_negative" CHECK (not "ledger_accounts"."allow_negative" or "ledger_accounts"."kind" = 'outside')
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"transaction_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "ledger_entries_amount_nonzero" CHECK ("ledger_entries"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_transactions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"payment_id" uuid,
	"booking_id" uuid,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_transactions_kind_check" CHECK ("ledger_transactions"."kind" in ('hold', 'release', 'refund', 'partial_refund', 'refund_sent', 'payout', 'payout_sent'))
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"requester_id" uuid NOT NULL,
	"driver_id" uuid NOT NULL,
	"title" text NOT NULL,
	"compensation_cents" bigint NOT NULL,
	"fee_cents" bigint NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"provider" text NOT NULL,
	"provider_charge_id" text,
	"card_brand" text,
	"card_last4" text,
	"refunded_cents" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"held_at" timestamp (3) with time zone,
	"settled_at" timestamp (3) with time zone,
	CONSTRAINT "payments_state_check" CHECK ("payments"."state" in ('pending', 'failed', 'voided', 'held', 'released', 'refunded', 'partly_refunded')),
	CONSTRAINT "payments_currency_check" CHECK ("payments"."currency" = 'usd'),
	CONSTRAINT "payments_amounts" CHECK ("payments"."compensation_cents" > 0 and "payments"."fee_cents" >= 0),
	CONSTRAINT "payments_refund_within_total" CHECK ("payments"."refunded_cents" >= 0 and "payments"."refunded_cents" <= "payments"."compensation_cents" + "payments"."fee_cents"),
	CONSTRAINT "payments_card_last4" CHECK ("payments"."card_last4" ~ '^[0-9]{4}$'),
	CONSTRAINT "payments_held_when_charged" CHECK (("payments"."held_at" is not null) = "payments"."state" in ('held', 'released', 'refunded', 'partly_refunded'))
);
--> statement-breakpoint
CREATE TABLE "test_provider_charges" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"card_brand" text NOT NULL,
	"card_last4" text NOT NULL,
	"refunded_cents" bigint DEFAULT 0 NOT NULL,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_provider_charges_status_check" CHECK ("test_provider_charges"."status" in ('succeeded', 'declined')),
	CONSTRAINT "test_provider_charges_refund_within" CHECK ("test_provider_charges"."refunded_cents" between 0 and "test_provider_charges"."amount_cents")
);
--> statement-breakpoint
CREATE TABLE "test_provider_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"charge_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_provider_refunds_amount" CHECK ("test_provider_refunds"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_provider_refunds" ADD CONSTRAINT "test_provider_refunds_charge_id_test_provider_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."test_provider_charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_key_idx" ON "ledger_accounts" USING btree ("key");--> statement-breakpoint
CREATE INDEX "ledger_accounts_user_idx" ON "ledger_accounts" USING btree ("user_id") WHERE "ledger_accounts"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_entries_transaction_idx" ON "ledger_entries" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("account_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_idempotency_key_idx" ON "ledger_transactions" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "ledger_transactions_payment_idx" ON "ledger_transactions" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_request_live_idx" ON "payments" USING btree ("request_id") WHERE "payments"."state" in ('pending', 'held');--> statement-breakpoint
CREATE UNIQUE INDEX "payments_booking_paid_idx" ON "payments" USING btree ("booking_id") WHERE "payments"."state" in ('pending', 'held', 'released', 'refunded', 'partly_refunded');--> statement-breakpoint
CREATE INDEX "payments_requester_created_idx" ON "payments" USING btree ("requester_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payments_driver_created_idx" ON "payments" USING btree ("driver_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "test_provider_charges_key_idx" ON "test_provider_charges" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "test_provider_refunds_key_idx" ON "test_provider_refunds" USING btree ("idempotency_key");--> statement-breakpoint
-- The ledger's rules, enforced by the database whatever the code does (decision 029):
-- 1. Every entry moves its account's balance in the statement that inserts it; the balance CHECK
--    (ledger_accounts_guarded) then refuses any guarded account below zero. Entries of one statement are applied in
--    the order they are inserted: the code inserts them by account id, so accounts are locked in id order.
CREATE FUNCTION "ledger_apply_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "ledger_accounts" SET "balance" = "balance" + NEW."amount" WHERE "id" = NEW."account_id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "ledger_entries_apply" AFTER INSERT ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION "ledger_apply_entry"();--> statement-breakpoint
-- 2. A transaction's entries sum to zero, checked at commit (deferred), once all of them are in.
CREATE FUNCTION "ledger_check_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total numeric;
BEGIN
  SELECT coalesce(sum("amount"), 0) INTO total FROM "ledger_entries" WHERE "transaction_id" = NEW."transaction_id";
  IF total <> 0 THEN
    RAISE EXCEPTION 'ledger transaction % is unbalanced by %', NEW."transaction_id", total
      USING ERRCODE = 'RRL01';
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ledger_entries_balanced" AFTER INSERT ON "ledger_entries"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "ledger_check_balanced"();--> statement-breakpoint
-- 3. The history is append-only: entries and transactions are never changed or removed, and a balance moves only
--    through an entry.
CREATE FUNCTION "ledger_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'RRL02';
END
$$;--> statement-breakpoint
CREATE TRIGGER "ledger_entries_append_only" BEFORE UPDATE OR DELETE OR TRUNCATE ON "ledger_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_refuse_change"();--> statement-breakpoint
CREATE TRIGGER "ledger_transactions_append_only" BEFORE UPDATE OR DELETE OR TRUNCATE ON "ledger_transactions"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_refuse_change"();--> statement-breakpoint
CREATE FUNCTION "ledger_refuse_balance_write"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only the entry trigger (nested one level below the INSERT) may move a balance.
  IF NEW."balance" IS DISTINCT FROM OLD."balance" AND pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'a ledger balance moves only through an entry' USING ERRCODE = 'RRL02';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "ledger_accounts_balance_guard" BEFORE UPDATE OF "balance" ON "ledger_accounts"
  FOR EACH ROW EXECUTE FUNCTION "ledger_refuse_balance_write"();--> statement-breakpoint
-- The world outside: the only account that may go below zero (it pays in before anything is held).
INSERT INTO "ledger_accounts" ("key", "kind", "allow_negative") VALUES ('outside', 'outside', true);--> statement-breakpoint
INSERT INTO "ledger_accounts" ("key", "kind") VALUES ('fees', 'fees'), ('refunds_pending', 'refunds_pending'),
  ('payouts_pending', 'payouts_pending');
