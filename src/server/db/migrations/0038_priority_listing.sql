-- Priority listing (issue 38): on Browse Rides (within each day) and Browse Requests (within each hour of posting),
-- Plus and Community members' listings come first. Each listing carries its poster's paid plan as `priority`, so the
-- browse order is its own row's and one index range serves it (decision 034).
DROP INDEX "delivery_requests_open_created_idx";--> statement-breakpoint
DROP INDEX "rides_active_departure_idx";--> statement-breakpoint
ALTER TABLE "delivery_requests" ADD COLUMN "priority" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "rides" ADD COLUMN "priority" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Backfill: the listings of members on a paid plan now.
UPDATE "rides" SET "priority" = true
  FROM "profiles" p WHERE p."user_id" = "rides"."user_id" AND p."plan" IS NOT NULL;--> statement-breakpoint
UPDATE "delivery_requests" SET "priority" = true
  FROM "profiles" p WHERE p."user_id" = "delivery_requests"."user_id" AND p."plan" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "delivery_requests_open_created_idx" ON "delivery_requests" USING btree (date_trunc('hour', "created_at" at time zone 'UTC'),"priority","created_at","id") WHERE "delivery_requests"."status" = 'open';--> statement-breakpoint
CREATE INDEX "rides_active_departure_idx" ON "rides" USING btree ("departure_date",(not "priority"),coalesce("departure_time", time '24:00'),"id") WHERE "rides"."status" = 'active';--> statement-breakpoint
-- A new listing takes its poster's plan as it is when the row is written. The profile row is read FOR SHARE: a plan
-- move (which updates profiles.plan, taking FOR NO KEY UPDATE) either waits for this insert to commit, and its trigger
-- below then sees and updates the new row, or this insert waits for the move to commit and reads the plan it wrote.
-- Without the lock, a listing posted during a plan move could keep the old flag.
CREATE FUNCTION "listing_priority"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  paid boolean;
BEGIN
  SELECT p."plan" IS NOT NULL INTO paid FROM "profiles" p WHERE p."user_id" = NEW."user_id" FOR SHARE;
  NEW."priority" := coalesce(paid, false);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "rides_priority" BEFORE INSERT ON "rides"
  FOR EACH ROW EXECUTE FUNCTION "listing_priority"();--> statement-breakpoint
CREATE TRIGGER "delivery_requests_priority" BEFORE INSERT ON "delivery_requests"
  FOR EACH ROW EXECUTE FUNCTION "listing_priority"();--> statement-breakpoint
-- A member's plan starts or ends (Free <-> Plus or Community; a switch between the two paid plans changes nothing):
-- every listing of theirs follows, in the plan move's own transaction. All of them, not only the active and open
-- ones, so the flag never depends on a listing's history. The updates bump the lists' versions (migrations 0018,
-- 0020), as profiles_list_version does for the plan itself (migration 0035).
CREATE FUNCTION "profiles_listing_priority"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "rides" SET "priority" = NEW."plan" IS NOT NULL
    WHERE "user_id" = NEW."user_id" AND "priority" IS DISTINCT FROM (NEW."plan" IS NOT NULL);
  UPDATE "delivery_requests" SET "priority" = NEW."plan" IS NOT NULL
    WHERE "user_id" = NEW."user_id" AND "priority" IS DISTINCT FROM (NEW."plan" IS NOT NULL);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "profiles_listing_priority" AFTER UPDATE OF "plan" ON "profiles"
  FOR EACH ROW WHEN ((OLD."plan" IS NULL) IS DISTINCT FROM (NEW."plan" IS NULL))
  EXECUTE FUNCTION "profiles_listing_priority"();
