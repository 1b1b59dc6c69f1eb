CREATE TABLE "dispute_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dispute_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"image" "bytea" NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dispute_photos_position" CHECK ("dispute_photos"."position" between 0 and 2),
	CONSTRAINT "dispute_photos_size" CHECK (octet_length("dispute_photos"."image") between 1 and 10485760),
	CONSTRAINT "dispute_photos_width" CHECK ("dispute_photos"."width" between 1 and 1600),
	CONSTRAINT "dispute_photos_height" CHECK ("dispute_photos"."height" between 1 and 1600)
);
--> statement-breakpoint
CREATE TABLE "dispute_responses" (
	"dispute_id" uuid PRIMARY KEY NOT NULL,
	"author_id" uuid NOT NULL,
	"details" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dispute_responses_details_length" CHECK (char_length("dispute_responses"."details") between 1 and 2000)
);
--> statement-breakpoint
CREATE TABLE "disputes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"payment_id" uuid NOT NULL,
	"reporter_id" uuid NOT NULL,
	"reporter_role" text NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"details" text NOT NULL,
	"item_value_cents" bigint,
	"state" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"decision" text,
	"note" text,
	"refund_cents" bigint,
	"released_cents" bigint,
	"approved_cents" bigint,
	"paid_at" timestamp (3) with time zone,
	"decided_by" uuid,
	"decided_at" timestamp (3) with time zone,
	CONSTRAINT "disputes_reporter_role_check" CHECK ("disputes"."reporter_role" in ('driver', 'requester')),
	CONSTRAINT "disputes_kind_check" CHECK ("disputes"."kind" in ('hold', 'claim', 'report')),
	CONSTRAINT "disputes_reason_check" CHECK ("disputes"."reason" in ('not_delivered', 'damaged', 'wrong_item', 'other')),
	CONSTRAINT "disputes_details_length" CHECK (char_length("disputes"."details") between 1 and 2000),
	CONSTRAINT "disputes_state_check" CHECK ("disputes"."state" in ('open', 'resolved')),
	CONSTRAINT "disputes_decision_check" CHECK ("disputes"."decision" in ('release', 'refund', 'split', 'approve', 'decline')),
	CONSTRAINT "disputes_note_length" CHECK (char_length("disputes"."note") between 1 and 2000),
	CONSTRAINT "disputes_decided" CHECK (("disputes"."state" = 'open') = ("disputes"."decision" is null and "disputes"."note" is null and "disputes"."decided_at" is null)),
	CONSTRAINT "disputes_claim_value" CHECK (("disputes"."kind" = 'claim') = ("disputes"."item_value_cents" is not null)),
	CONSTRAINT "disputes_item_value" CHECK ("disputes"."item_value_cents" is null or "disputes"."item_value_cents" > 0),
	CONSTRAINT "disputes_amounts" CHECK (coalesce("disputes"."refund_cents", 0) >= 0 and coalesce("disputes"."released_cents", 0) >= 0 and coalesce("disputes"."approved_cents", 0) >= 0)
);
--> statement-breakpoint
ALTER TABLE "booking_events" DROP CONSTRAINT "booking_events_type_check";--> statement-breakpoint
ALTER TABLE "booking_events" DROP CONSTRAINT "booking_events_reason_check";--> statement-breakpoint
ALTER TABLE "moderation_actions" DROP CONSTRAINT "moderation_actions_action_check";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_kind_check";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "on_hold_dispute_id" uuid;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD COLUMN "dispute_id" uuid;--> statement-breakpoint
ALTER TABLE "dispute_photos" ADD CONSTRAINT "dispute_photos_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_photos" ADD CONSTRAINT "dispute_photos_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_responses" ADD CONSTRAINT "dispute_responses_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_responses" ADD CONSTRAINT "dispute_responses_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dispute_photos_author_position_key" ON "dispute_photos" USING btree ("dispute_id","author_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "disputes_booking_open_key" ON "disputes" USING btree ("booking_id") WHERE "disputes"."state" = 'open';--> statement-breakpoint
CREATE INDEX "disputes_booking_idx" ON "disputes" USING btree ("booking_id","created_at");--> statement-breakpoint
CREATE INDEX "disputes_state_created_idx" ON "disputes" USING btree ("state","created_at","id");--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_events" ADD CONSTRAINT "booking_events_type_check" CHECK ("booking_events"."type" in ('offered', 'chosen', 'declined', 'withdrawn', 'cancelled', 'picked_up', 'completed', 'received', 'other_chosen', 'request_withdrawn', 'resolved'));--> statement-breakpoint
ALTER TABLE "booking_events" ADD CONSTRAINT "booking_events_reason_check" CHECK ("booking_events"."reason" in ('plans_changed', 'too_late', 'item_not_ready', 'other', 'account_deleted', 'resolved_by_ruralroute'));--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_action_check" CHECK ("moderation_actions"."action" in ('dismiss_report', 'suspend_account', 'lift_suspension', 'dispute_release', 'dispute_refund', 'dispute_split', 'claim_approve', 'claim_decline', 'dispute_close'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('offer_received', 'offer_chosen', 'offer_declined', 'booking_cancelled', 'picked_up', 'delivery_completed', 'message', 'review_published', 'ride_ask', 'search_match', 'payment_held', 'payment_released', 'payment_refunded', 'payout_sent', 'dispute_opened', 'dispute_resolved', 'password_changed', 'email_changed', 'new_sign_in', 'two_factor_enabled', 'two_factor_disabled'));--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_kind_check" CHECK ("ledger_accounts"."kind" in ('outside', 'held', 'driver', 'fees', 'guarantee_reserve', 'credit', 'refunds_pending', 'payouts_pending'));--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK ("ledger_transactions"."kind" in ('hold', 'release', 'refund', 'partial_refund', 'refund_sent', 'payout', 'payout_sent', 'guarantee_claim'));