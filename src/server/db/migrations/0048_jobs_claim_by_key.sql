-- Issue 39 (the write path): the claim updates the jobs it picked by their key. With 0043's `jobs.id IN (subquery)`,
-- the plan a function's statement keeps (the generic one: its LIMIT is a parameter, so the planner guesses a tenth of
-- the due jobs its statistics last saw) became, once jobs was analysed during a backlog, a hash semi join over a Seq
-- Scan of the whole table: every claim read every job kept, sent ones included (they stay 7 days). In bench:api's
-- choose at 100 req/s, with 10,000 jobs, that was 2 ms of database time a claim, about 2,000 µs per choose
-- (auto_explain). `= ANY(ARRAY(subquery))` is an index condition on jobs_pkey: the subquery runs once (jobs_due_idx,
-- up to p_limit rows) and the update fetches exactly those rows, whatever the statistics say.
-- Test: src/server/jobs/jobs-claim-plan.db.test.ts.
CREATE OR REPLACE FUNCTION "rr_jobs_claim"("p_now" timestamptz, "p_until" timestamptz, "p_limit" int)
RETURNS TABLE ("id" bigint, "kind" text, "payload" jsonb, "attempts" int)
LANGUAGE plpgsql SET enable_bitmapscan = off AS $$
BEGIN
  RETURN QUERY
  UPDATE jobs SET attempts = jobs.attempts + 1, locked_until = p_until
  WHERE jobs.id = ANY (ARRAY (
    SELECT due.id FROM jobs due
    WHERE due.status = 'queued' AND due.run_at <= p_now AND (due.locked_until IS NULL OR due.locked_until <= p_now)
    ORDER BY due.run_at, due.id
    LIMIT p_limit
    FOR UPDATE SKIP LOCKED))
  RETURNING jobs.id, jobs.kind, jobs.payload, jobs.attempts;
END
$$;
