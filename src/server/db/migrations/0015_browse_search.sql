-- Issue 14, Browse 'Search': words are found in a listing's text with accents, case and punctuation ignored.
-- rr_search() is rr_fold() without punctuation ('Co-op' and 'coop' alike); IMMUTABLE like rr_fold, so indexable.
CREATE OR REPLACE FUNCTION rr_search(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT regexp_replace(public.rr_fold($1), '[^[:alnum:][:space:]]+', '', 'g') $$;--> statement-breakpoint
-- Trigram indexes on exactly the expressions the Browse queries search (src/server/requests/service.ts and
-- src/server/rides/service.ts), for the listings Browse shows: each word is a LIKE '%word%' they answer.
CREATE INDEX "delivery_requests_open_search_idx" ON "delivery_requests" USING gin
  (rr_search("title" || ' ' || "description" || ' ' || "pickup_location" || ' ' || "delivery_location") gin_trgm_ops)
  WHERE "status" = 'open';--> statement-breakpoint
CREATE INDEX "rides_active_search_idx" ON "rides" USING gin
  (rr_search("origin" || ' ' || "destination" || ' ' || coalesce("notes", '')) gin_trgm_ops)
  WHERE "status" = 'active';
