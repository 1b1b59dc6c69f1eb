-- Attempt counters are short-lived and rewritten on every attempt: no WAL for them. After a crash PostgreSQL
-- empties an unlogged table, which only restarts the current windows.
ALTER TABLE "attempt_counters" SET UNLOGGED;
