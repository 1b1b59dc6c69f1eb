CREATE TABLE "payment_reconciliations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trigger" text NOT NULL,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"checked" bigint DEFAULT 0 NOT NULL,
	"differences" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"repaired" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "payment_reconciliations_trigger_check" CHECK ("payment_reconciliations"."trigger" in ('daily', 'admin'))
);
--> statement-breakpoint
CREATE TABLE "payment_webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "payout_accounts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"provider_account_id" text NOT NULL,
	"status" text NOT NULL,
	"last4" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_accounts_status_check" CHECK ("payout_accounts"."status" in ('pending', 'active'))
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"provider" text NOT NULL,
	"provider_transfer_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp (3) with time zone,
	CONSTRAINT "payouts_state_check" CHECK ("payouts"."state" in ('pending', 'paid')),
	CONSTRAINT "payouts_amount_positive" CHECK ("payouts"."amount_cents" > 0),
	CONSTRAINT "payouts_paid_at" CHECK (("payouts"."paid_at" is not null) = ("payouts"."state" = 'paid'))
);
--> statement-breakpoint
CREATE TABLE "test_provider_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"routing_number" text NOT NULL,
	"account_last4" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_provider_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"account_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_provider_transfers_amount" CHECK ("test_provider_transfers"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "test_provider_transfers" ADD CONSTRAINT "test_provider_transfers_account_id_test_provider_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."test_provider_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_reconciliations_started_idx" ON "payment_reconciliations" USING btree ("started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_accounts_provider_account_idx" ON "payout_accounts" USING btree ("provider","provider_account_id");--> statement-breakpoint
CREATE INDEX "payouts_user_created_idx" ON "payouts" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "test_provider_transfers_key_idx" ON "test_provider_transfers" USING btree ("idempotency_key");