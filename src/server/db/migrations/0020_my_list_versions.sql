CREATE TABLE "my_list_versions" (
	"user_id" uuid NOT NULL,
	"shard" integer NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "my_list_versions_user_id_shard_pk" PRIMARY KEY("user_id","shard")
);
--> statement-breakpoint
-- Issue 16 (docs/decisions/024-tail-latency.md): each user's own lists are cached in each instance's memory under
-- that user's version; every write to what one of their lists shows bumps it in the writer's transaction, so a list
-- cached before the write commits is never served after it, on any instance. Each backend bumps rows of its own.
-- PL/pgSQL, not SQL: its plan is kept per connection (an SQL function's INSERT was planned on every call, 0.1-0.2 ms
-- more per write in pgbench).
CREATE FUNCTION "bump_my_lists"(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "my_list_versions" ("user_id", "shard", "version")
    SELECT DISTINCT u, pg_backend_pid(), 1 FROM unnest(ids) AS u WHERE u IS NOT NULL
    ON CONFLICT ("user_id", "shard") DO UPDATE SET "version" = "my_list_versions"."version" + 1;
END
$$;--> statement-breakpoint
-- My Rides: the owner's rides (and their own name and rating, below).
CREATE FUNCTION "rides_my_lists"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "bump_my_lists"(array(SELECT "user_id" FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "bump_my_lists"(array(SELECT "user_id" FROM old_rows));
  ELSE
    PERFORM "bump_my_lists"(array(SELECT "user_id" FROM new_rows UNION SELECT "user_id" FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "rides_my_lists_insert" AFTER INSERT ON "rides"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "rides_my_lists"();--> statement-breakpoint
CREATE TRIGGER "rides_my_lists_update" AFTER UPDATE ON "rides"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "rides_my_lists"();--> statement-breakpoint
CREATE TRIGGER "rides_my_lists_delete" AFTER DELETE ON "rides"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "rides_my_lists"();--> statement-breakpoint
-- My Requests: the owner's requests. My Bookings: a request's title and places, for every driver with an offer on it.
CREATE FUNCTION "delivery_requests_my_lists"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "bump_my_lists"(array(SELECT "user_id" FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "bump_my_lists"(array(
      SELECT "user_id" FROM old_rows
      UNION SELECT b."driver_id" FROM "bookings" b JOIN old_rows o ON b."request_id" = o."id"));
  ELSE
    PERFORM "bump_my_lists"(array(
      SELECT "user_id" FROM new_rows UNION SELECT "user_id" FROM old_rows
      UNION SELECT b."driver_id" FROM new_rows n JOIN old_rows o ON o."id" = n."id"
        JOIN "bookings" b ON b."request_id" = n."id"
        WHERE (n."title", n."pickup_location", n."delivery_location")
          IS DISTINCT FROM (o."title", o."pickup_location", o."delivery_location")));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "delivery_requests_my_lists_insert" AFTER INSERT ON "delivery_requests"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "delivery_requests_my_lists"();--> statement-breakpoint
CREATE TRIGGER "delivery_requests_my_lists_update" AFTER UPDATE ON "delivery_requests"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "delivery_requests_my_lists"();--> statement-breakpoint
CREATE TRIGGER "delivery_requests_my_lists_delete" AFTER DELETE ON "delivery_requests"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "delivery_requests_my_lists"();--> statement-breakpoint
-- My Bookings (both roles) and My Requests' pending offer counts: both parties of a booking that is added, removed or
-- changes status (nothing else of a booking is on those lists: its activity time changes with every message).
CREATE FUNCTION "bookings_my_lists"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "bump_my_lists"(array(SELECT "driver_id" FROM new_rows UNION SELECT "requester_id" FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "bump_my_lists"(array(SELECT "driver_id" FROM old_rows UNION SELECT "requester_id" FROM old_rows));
  ELSE
    PERFORM "bump_my_lists"(array(
      SELECT unnest(ARRAY[n."driver_id", n."requester_id", o."driver_id", o."requester_id"])
        FROM new_rows n JOIN old_rows o ON o."id" = n."id"
        WHERE (n."status", n."request_id", n."driver_id", n."requester_id", n."created_at")
          IS DISTINCT FROM (o."status", o."request_id", o."driver_id", o."requester_id", o."created_at")));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "bookings_my_lists_insert" AFTER INSERT ON "bookings"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "bookings_my_lists"();--> statement-breakpoint
CREATE TRIGGER "bookings_my_lists_update" AFTER UPDATE ON "bookings"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "bookings_my_lists"();--> statement-breakpoint
CREATE TRIGGER "bookings_my_lists_delete" AFTER DELETE ON "bookings"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "bookings_my_lists"();--> statement-breakpoint
-- A name or rating is on the user's own cards and on every counterpart's My Bookings.
CREATE FUNCTION "profiles_my_lists"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed uuid[];
BEGIN
  IF TG_OP = 'DELETE' THEN
    changed := array(SELECT "user_id" FROM old_rows);
  ELSE
    changed := array(
      SELECT n."user_id" FROM new_rows n JOIN old_rows o ON o."user_id" = n."user_id"
        WHERE (n."full_name", n."rating_count", n."rating_sum")
          IS DISTINCT FROM (o."full_name", o."rating_count", o."rating_sum"));
  END IF;
  IF cardinality(changed) > 0 THEN
    PERFORM "bump_my_lists"(changed
      || array(SELECT "requester_id" FROM "bookings" WHERE "driver_id" = ANY (changed))
      || array(SELECT "driver_id" FROM "bookings" WHERE "requester_id" = ANY (changed)));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "profiles_my_lists_update" AFTER UPDATE ON "profiles"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "profiles_my_lists"();--> statement-breakpoint
CREATE TRIGGER "profiles_my_lists_delete" AFTER DELETE ON "profiles"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "profiles_my_lists"();
