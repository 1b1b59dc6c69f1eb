ALTER TABLE "disputes" ADD COLUMN "claim_cap_cents" bigint;--> statement-breakpoint
-- Claims made before plans existed had the Delivery Guarantee's $50 cap.
UPDATE "disputes" SET "claim_cap_cents" = 5000 WHERE "kind" = 'claim';--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_claim_cap" CHECK (("disputes"."kind" = 'claim') = ("disputes"."claim_cap_cents" is not null));
