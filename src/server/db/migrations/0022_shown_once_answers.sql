-- A stored answer never holds a secret (src/server/idempotency/middleware.ts). Answers kept before this migration that
-- do (recovery codes, a two-factor set-up key) become the answer a repeat now gets instead.
ALTER TABLE "idempotency_keys" ADD COLUMN "recheck" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "idempotency_keys"
SET "status" = 409, "content_type" = 'application/json', "recheck" = true,
    "body" = '{"code":"idempotency_answer_not_kept","message":"This was already done. What it showed is shown only once, so it cannot be shown again."}'
WHERE "body" LIKE '{"recovery_codes":%' OR "body" LIKE '{"secret":%';
