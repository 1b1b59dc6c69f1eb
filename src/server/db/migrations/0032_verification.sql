CREATE TABLE "email_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	CONSTRAINT "email_verifications_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "id_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"full_name" text NOT NULL,
	"submitted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp (3) with time zone,
	"decided_by" uuid,
	"reason" text,
	CONSTRAINT "id_checks_status_check" CHECK ("id_checks"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "id_checks_reason_check" CHECK ("id_checks"."reason" is null or "id_checks"."reason" in ('unreadable', 'name_mismatch', 'expired', 'other')),
	CONSTRAINT "id_checks_decided" CHECK (("id_checks"."status" = 'pending') = ("id_checks"."decided_at" is null)),
	CONSTRAINT "id_checks_rejected_reason" CHECK (("id_checks"."status" = 'rejected') = ("id_checks"."reason" is not null))
);
--> statement-breakpoint
CREATE TABLE "id_documents" (
	"check_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"key_id" text NOT NULL,
	"iv" "bytea" NOT NULL,
	"auth_tag" "bytea" NOT NULL,
	"ciphertext" "bytea" NOT NULL,
	CONSTRAINT "id_documents_check_id_kind_pk" PRIMARY KEY("check_id","kind"),
	CONSTRAINT "id_documents_kind_check" CHECK ("id_documents"."kind" in ('front', 'selfie')),
	CONSTRAINT "id_documents_type_check" CHECK ("id_documents"."content_type" in ('image/jpeg', 'image/png', 'image/webp'))
);
--> statement-breakpoint
CREATE TABLE "phone_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"phone" text NOT NULL,
	"code_hash" text NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "moderation_actions" DROP CONSTRAINT "moderation_actions_action_check";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "email_verified_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "phone_verified_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "id_checked_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "verified" boolean GENERATED ALWAYS AS (email_verified_at is not null and phone_verified_at is not null and id_checked_at is not null) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD COLUMN "id_check_id" uuid;--> statement-breakpoint
ALTER TABLE "email_verifications" ADD CONSTRAINT "email_verifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "id_checks" ADD CONSTRAINT "id_checks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "id_checks" ADD CONSTRAINT "id_checks_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "id_documents" ADD CONSTRAINT "id_documents_check_id_id_checks_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."id_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_verifications" ADD CONSTRAINT "phone_verifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_verifications_user_idx" ON "email_verifications" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "id_checks_pending_idx" ON "id_checks" USING btree ("submitted_at","id") WHERE "id_checks"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "id_checks_user_idx" ON "id_checks" USING btree ("user_id","submitted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "id_checks_one_pending" ON "id_checks" USING btree ("user_id") WHERE "id_checks"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "phone_verifications_user_idx" ON "phone_verifications" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_id_check_id_id_checks_id_fk" FOREIGN KEY ("id_check_id") REFERENCES "public"."id_checks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_phone_key" ON "profiles" USING btree ("phone") WHERE "profiles"."phone" is not null;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_phone_verified" CHECK (("profiles"."phone" is null) = ("profiles"."phone_verified_at" is null));--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_action_check" CHECK ("moderation_actions"."action" in ('dismiss_report', 'suspend_account', 'lift_suspension', 'dispute_release', 'dispute_refund', 'dispute_split', 'claim_approve', 'claim_decline', 'dispute_close', 'reserve_fund', 'id_approve', 'id_reject'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('offer_received', 'offer_chosen', 'offer_declined', 'booking_cancelled', 'picked_up', 'delivery_completed', 'message', 'review_published', 'ride_ask', 'search_match', 'payment_held', 'payment_released', 'payment_refunded', 'payout_sent', 'dispute_opened', 'dispute_resolved', 'chargeback', 'id_check', 'password_changed', 'email_changed', 'new_sign_in', 'two_factor_enabled', 'two_factor_disabled'));