-- A moderator can lift a suspension (src/server/moderation/admin.ts): its audit row names the new action.
ALTER TABLE "moderation_actions" DROP CONSTRAINT "moderation_actions_action_check";--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_action_check" CHECK ("moderation_actions"."action" in ('dismiss_report', 'suspend_account', 'lift_suspension'));