-- Issue 14, Browse 'Search' and faster suggestions (docs/places.md).
-- rr_search() is rr_fold() without punctuation ('Co-op' and 'coop' alike); IMMUTABLE like rr_fold, so a generated
-- column can use it. Folding (unaccent) is the costly part of a search: stored once per row, a query folds only
-- its own words and compares plain text.
CREATE OR REPLACE FUNCTION rr_search(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT regexp_replace(public.rr_fold($1), '[^[:alnum:][:space:]]+', '', 'g') $$;--> statement-breakpoint
-- The stored 'fold' column replaces 0014's indexes on the rr_fold(name) expression. A typo is looked for among the
-- names sharing its first two letters (the prefix index), not through a trigram index: on PGlite a trigram index
-- scan for a word with common trigrams ('field') takes 25-35 ms, the prefix range well under one (docs/places.md).
DROP INDEX IF EXISTS "places_name_prefix_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "places_name_trgm_idx";--> statement-breakpoint
ALTER TABLE "delivery_requests" ADD COLUMN "search_text" text GENERATED ALWAYS AS (rr_search(title || ' ' || description || ' ' || pickup_location || ' ' || delivery_location)) STORED;--> statement-breakpoint
ALTER TABLE "places" ADD COLUMN "fold" text GENERATED ALWAYS AS (rr_fold(name)) STORED;--> statement-breakpoint
ALTER TABLE "rides" ADD COLUMN "search_text" text GENERATED ALWAYS AS (rr_search(origin || ' ' || destination || ' ' || coalesce(notes, ''))) STORED;--> statement-breakpoint
CREATE INDEX "delivery_requests_open_search_idx" ON "delivery_requests" USING gin ("search_text" gin_trgm_ops) WHERE "delivery_requests"."status" = 'open';--> statement-breakpoint
CREATE INDEX "places_fold_prefix_idx" ON "places" USING btree ("fold" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "rides_active_search_idx" ON "rides" USING gin ("search_text" gin_trgm_ops) WHERE "rides"."status" = 'active';