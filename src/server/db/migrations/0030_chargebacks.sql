CREATE TABLE "chargebacks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"provider_dispute_id" text NOT NULL,
	"payment_id" uuid NOT NULL,
	"booking_id" uuid NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"fee_cents" bigint DEFAULT 0 NOT NULL,
	"lost_cents" bigint DEFAULT 0 NOT NULL,
	"opened_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp (3) with time zone,
	CONSTRAINT "chargebacks_status_check" CHECK ("chargebacks"."status" in ('warning_needs_response', 'warning_under_review', 'needs_response', 'under_review', 'warning_closed', 'won', 'lost')),
	CONSTRAINT "chargebacks_amounts" CHECK ("chargebacks"."amount_cents" > 0 and "chargebacks"."fee_cents" >= 0),
	CONSTRAINT "chargebacks_closed_when_final" CHECK (("chargebacks"."closed_at" is not null) = "chargebacks"."status" in ('warning_closed', 'won', 'lost'))
);
--> statement-breakpoint
ALTER TABLE "moderation_actions" DROP CONSTRAINT "moderation_actions_action_check";--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_kind_check";--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_only_outside_negative";--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_kind_check";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "on_hold_chargeback_id" uuid;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD COLUMN "amount_cents" bigint;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD COLUMN "note" text;--> statement-breakpoint
CREATE UNIQUE INDEX "chargebacks_provider_dispute_idx" ON "chargebacks" USING btree ("provider","provider_dispute_id");--> statement-breakpoint
CREATE INDEX "chargebacks_payment_idx" ON "chargebacks" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "chargebacks_opened_idx" ON "chargebacks" USING btree ("opened_at","id");--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_action_check" CHECK ("moderation_actions"."action" in ('dismiss_report', 'suspend_account', 'lift_suspension', 'dispute_release', 'dispute_refund', 'dispute_split', 'claim_approve', 'claim_decline', 'dispute_close', 'reserve_fund'));--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_kind_check" CHECK ("ledger_accounts"."kind" in ('outside', 'held', 'driver', 'fees', 'guarantee_reserve', 'credit', 'refunds_pending', 'payouts_pending', 'chargeback_losses'));--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_only_outside_negative" CHECK (not "ledger_accounts"."allow_negative" or "ledger_accounts"."kind" in ('outside', 'chargeback_losses'));--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK ("ledger_transactions"."kind" in ('hold', 'release', 'refund', 'partial_refund', 'refund_sent', 'payout', 'payout_sent', 'guarantee_claim', 'chargeback_withdrawn', 'chargeback_reinstated', 'chargeback_recovered', 'reserve_funding'));