CREATE TABLE "test_provider_payment_methods" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"card_brand" text NOT NULL,
	"card_last4" text NOT NULL,
	"outcome" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_charges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"plan" text NOT NULL,
	"kind" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"amount_cents" bigint NOT NULL,
	"proration_cents" bigint DEFAULT 0 NOT NULL,
	"credit_cents" bigint DEFAULT 0 NOT NULL,
	"card_cents" bigint DEFAULT 0 NOT NULL,
	"period_start" timestamp (3) with time zone NOT NULL,
	"period_end" timestamp (3) with time zone NOT NULL,
	"provider" text NOT NULL,
	"provider_charge_id" text,
	"card_brand" text,
	"card_last4" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp (3) with time zone,
	CONSTRAINT "plan_charges_plan_check" CHECK ("plan_charges"."plan" in ('plus', 'community')),
	CONSTRAINT "plan_charges_kind_check" CHECK ("plan_charges"."kind" in ('subscribe', 'renewal', 'switch')),
	CONSTRAINT "plan_charges_state_check" CHECK ("plan_charges"."state" in ('pending', 'paid', 'failed')),
	CONSTRAINT "plan_charges_amounts" CHECK ("plan_charges"."amount_cents" >= 0 and "plan_charges"."proration_cents" >= 0 and "plan_charges"."credit_cents" >= 0 and "plan_charges"."card_cents" >= 0),
	CONSTRAINT "plan_charges_paid_at" CHECK (("plan_charges"."state" = 'paid') = ("plan_charges"."paid_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "plan_subscriptions" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"plan" text NOT NULL,
	"status" text NOT NULL,
	"period_price_cents" bigint NOT NULL,
	"current_period_start" timestamp (3) with time zone NOT NULL,
	"current_period_end" timestamp (3) with time zone NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"grace_until" timestamp (3) with time zone,
	"provider" text NOT NULL,
	"payment_method_id" text,
	"card_brand" text,
	"card_last4" text,
	"provider_customer_id" text,
	"provider_subscription_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_subscriptions_plan_check" CHECK ("plan_subscriptions"."plan" in ('plus', 'community')),
	CONSTRAINT "plan_subscriptions_status_check" CHECK ("plan_subscriptions"."status" in ('active', 'past_due', 'canceled')),
	CONSTRAINT "plan_subscriptions_period" CHECK ("plan_subscriptions"."current_period_end" > "plan_subscriptions"."current_period_start"),
	CONSTRAINT "plan_subscriptions_grace" CHECK (("plan_subscriptions"."status" = 'past_due') = ("plan_subscriptions"."grace_until" is not null)),
	CONSTRAINT "plan_subscriptions_price" CHECK ("plan_subscriptions"."period_price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ride_stops" (
	"ride_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"label" text NOT NULL,
	"stop_place_id" integer,
	"stop_lat" double precision,
	"stop_lon" double precision,
	CONSTRAINT "ride_stops_ride_id_position_pk" PRIMARY KEY("ride_id","position"),
	CONSTRAINT "ride_stops_position" CHECK ("ride_stops"."position" between 1 and 3),
	CONSTRAINT "ride_stops_label_length" CHECK (char_length("ride_stops"."label") between 1 and 500),
	CONSTRAINT "ride_stops_place" CHECK (("ride_stops"."stop_place_id" is null) = ("ride_stops"."stop_lat" is null) and ("ride_stops"."stop_lat" is null) = ("ride_stops"."stop_lon" is null))
);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_only_outside_negative";--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_kind_check";--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "plan" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "early_access" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "plan" text;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "reply" text;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "replied_by" uuid;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "replied_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "plan_subscriptions" ADD CONSTRAINT "plan_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ride_stops" ADD CONSTRAINT "ride_stops_ride_id_rides_id_fk" FOREIGN KEY ("ride_id") REFERENCES "public"."rides"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ride_stops" ADD CONSTRAINT "ride_stops_stop_place_id_places_id_fk" FOREIGN KEY ("stop_place_id") REFERENCES "public"."places"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "plan_charges_pending_key" ON "plan_charges" USING btree ("user_id") WHERE "plan_charges"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "plan_charges_user_idx" ON "plan_charges" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "plan_charges_provider_charge_idx" ON "plan_charges" USING btree ("provider","provider_charge_id") WHERE "plan_charges"."provider_charge_id" is not null;--> statement-breakpoint
CREATE INDEX "plan_subscriptions_due_idx" ON "plan_subscriptions" USING btree ("current_period_end") WHERE "plan_subscriptions"."status" = 'active';--> statement-breakpoint
CREATE INDEX "plan_subscriptions_grace_idx" ON "plan_subscriptions" USING btree ("grace_until") WHERE "plan_subscriptions"."status" = 'past_due';--> statement-breakpoint
CREATE UNIQUE INDEX "plan_subscriptions_provider_subscription_key" ON "plan_subscriptions" USING btree ("provider_subscription_id") WHERE "plan_subscriptions"."provider_subscription_id" is not null;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD CONSTRAINT "contact_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD CONSTRAINT "contact_messages_replied_by_users_id_fk" FOREIGN KEY ("replied_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_messages_inbox_idx" ON "contact_messages" USING btree (("replied_at" is not null),("plan" is null),"created_at","id");--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_plan_check" CHECK ("profiles"."plan" in ('plus', 'community'));--> statement-breakpoint
ALTER TABLE "contact_messages" ADD CONSTRAINT "contact_messages_plan_check" CHECK ("contact_messages"."plan" in ('plus', 'community'));--> statement-breakpoint
ALTER TABLE "contact_messages" ADD CONSTRAINT "contact_messages_reply" CHECK (("contact_messages"."reply" is null) = ("contact_messages"."replied_at" is null));--> statement-breakpoint
ALTER TABLE "contact_messages" ADD CONSTRAINT "contact_messages_reply_length" CHECK (char_length("contact_messages"."reply") between 1 and 5000);--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_kind_check" CHECK ("ledger_accounts"."kind" in ('outside', 'held', 'driver', 'fees', 'guarantee_reserve', 'credit', 'refunds_pending', 'payouts_pending', 'chargeback_losses', 'plan_revenue', 'rewards'));--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_only_outside_negative" CHECK (not "ledger_accounts"."allow_negative" or "ledger_accounts"."kind" in ('outside', 'chargeback_losses', 'rewards'));--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK ("ledger_transactions"."kind" in ('hold', 'release', 'refund', 'partial_refund', 'refund_sent', 'payout', 'payout_sent', 'guarantee_claim', 'chargeback_withdrawn', 'chargeback_reinstated', 'chargeback_recovered', 'reserve_funding', 'plan_charge', 'plan_proration', 'reward'));--> statement-breakpoint
-- Browse cards show a paid plan's 'Priority' and Community's 'Ambassador' (issue 38): a plan's change bumps the browse
-- lists' versions like a new name, rating or check (migrations 0018, 0033).
DROP TRIGGER "profiles_list_version" ON "profiles";--> statement-breakpoint
CREATE TRIGGER "profiles_list_version"
  AFTER UPDATE OF "full_name", "rating_count", "rating_sum", "email_verified_at", "phone_verified_at", "id_checked_at", "plan"
  OR DELETE ON "profiles"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_list_version"('rides', 'requests');
