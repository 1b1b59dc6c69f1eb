-- Issue 39 (the write path): the job worker's claim walks the due jobs in the claim's own order and stops at its
-- LIMIT. The old index (run_at) could not give the (run_at, id) order, and with the statistics of a queue that is
-- mostly sent jobs (almost no 'queued' row when last analysed) the planner chose a bitmap scan of every due job and a
-- sort: under a backlog of 1,100 due mails each claim read and sorted all of them (auto_explain, bench:api's choose
-- pass: 1.2 ms a claim, the worker's costliest statement).
DROP INDEX "jobs_due_idx";--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at","id") WHERE "jobs"."status" = 'queued';--> statement-breakpoint
-- The claim (src/server/jobs/worker.ts): up to p_limit due jobs, oldest first, skipping those another worker holds,
-- each with its attempt counted and its lease until p_until. Bitmap scans are off inside it, so the plan is the
-- ordered index walk whatever the statistics say (a bitmap scan cannot return rows in index order).
CREATE FUNCTION "rr_jobs_claim"("p_now" timestamptz, "p_until" timestamptz, "p_limit" int)
RETURNS TABLE ("id" bigint, "kind" text, "payload" jsonb, "attempts" int)
LANGUAGE plpgsql SET enable_bitmapscan = off AS $$
BEGIN
  RETURN QUERY
  UPDATE jobs SET attempts = jobs.attempts + 1, locked_until = p_until
  WHERE jobs.id IN (
    SELECT due.id FROM jobs due
    WHERE due.status = 'queued' AND due.run_at <= p_now AND (due.locked_until IS NULL OR due.locked_until <= p_now)
    ORDER BY due.run_at, due.id
    LIMIT p_limit
    FOR UPDATE SKIP LOCKED)
  RETURNING jobs.id, jobs.kind, jobs.payload, jobs.attempts;
END
$$;
