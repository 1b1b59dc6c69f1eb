CREATE TABLE "list_versions" (
	"list" text NOT NULL,
	"shard" integer NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "list_versions_list_shard_pk" PRIMARY KEY("list","shard"),
	CONSTRAINT "list_versions_list_check" CHECK ("list_versions"."list" in ('rides', 'requests'))
);
--> statement-breakpoint
-- Issue 16 (docs/decisions/024-tail-latency.md): browse pages are cached in each instance's memory under their list's
-- version; every write to what a card shows bumps it in the writer's transaction, so a page cached before the write
-- commits is never served after it, on any instance. 16 rows per list: each backend bumps the row of its pid.
INSERT INTO "list_versions" ("list", "shard")
  SELECT l, s FROM unnest(ARRAY['rides', 'requests']) AS l, generate_series(0, 15) AS s;--> statement-breakpoint
CREATE FUNCTION "bump_list_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "list_versions" SET "version" = "version" + 1
    WHERE "list" = ANY (TG_ARGV) AND "shard" = pg_backend_pid() % 16;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "rides_list_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "rides"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_list_version"('rides');--> statement-breakpoint
CREATE TRIGGER "delivery_requests_list_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "delivery_requests"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_list_version"('requests');--> statement-breakpoint
-- The poster's name and rating are on every card; a suspended poster's listings leave browse.
CREATE TRIGGER "profiles_list_version" AFTER UPDATE OF "full_name", "rating_count", "rating_sum" OR DELETE ON "profiles"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_list_version"('rides', 'requests');--> statement-breakpoint
CREATE TRIGGER "users_list_version" AFTER UPDATE OF "suspended_at" OR DELETE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_list_version"('rides', 'requests');
