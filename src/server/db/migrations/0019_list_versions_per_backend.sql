-- Issue 16 fix: with 16 shared rows per list, two backends whose pids fell on one row deadlocked (each statement's
-- trigger locked that row after the statement's own row locks, e.g. two review sweeps updating profiles). Each backend
-- now bumps a row of its own (shard = its pid), so no transaction ever waits for another's version row.
CREATE OR REPLACE FUNCTION "bump_list_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "list_versions" ("list", "shard", "version")
    SELECT l, pg_backend_pid(), 1 FROM unnest(TG_ARGV) AS l
    ON CONFLICT ("list", "shard") DO UPDATE SET "version" = "list_versions"."version" + 1;
  RETURN NULL;
END
$$;
