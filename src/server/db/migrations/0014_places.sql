-- Issue 14: trigram matching for place suggestions and text search, accents folded (both ship with PostgreSQL's
-- contrib and with PGlite; src/server/db/client.ts loads them into PGlite).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change), so an index cannot use it; naming the dictionary makes
-- this wrapper safe to declare IMMUTABLE. Lower-cased, accents removed: 'Café' and 'cafe' fold alike.
CREATE OR REPLACE FUNCTION rr_fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;--> statement-breakpoint
CREATE TABLE "place_zips" (
	"zip" text PRIMARY KEY NOT NULL,
	"place_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "places" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"state" text NOT NULL,
	"zip" text NOT NULL,
	"lat" double precision NOT NULL,
	"lon" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ride_asks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ride_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_searches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ride_id" uuid,
	"email" boolean DEFAULT true NOT NULL,
	"last_emailed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_searches_kind_check" CHECK ("saved_searches"."kind" in ('requests', 'rides')),
	CONSTRAINT "saved_searches_name_length" CHECK (char_length("saved_searches"."name") between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "delivery_requests" ADD COLUMN "pickup_place_id" integer;--> statement-breakpoint
ALTER TABLE "delivery_requests" ADD COLUMN "pickup_lat" double precision;--> statement-breakpoint
ALTER TABLE "delivery_requests" ADD COLUMN "pickup_lon" double precision;--> statement-breakpoint
ALTER TABLE "delivery_requests" ADD COLUMN "delivery_place_id" integer;--> statement-breakpoint
ALTER TABLE "delivery_requests" ADD COLUMN "delivery_lat" double precision;--> statement-breakpoint
ALTER TABLE "delivery_requests" ADD COLUMN "delivery_lon" double precision;--> statement-breakpoint
ALTER TABLE "rides" ADD COLUMN "origin_place_id" integer;--> statement-breakpoint
ALTER TABLE "rides" ADD COLUMN "origin_lat" double precision;--> statement-breakpoint
ALTER TABLE "rides" ADD COLUMN "origin_lon" double precision;--> statement-breakpoint
ALTER TABLE "rides" ADD COLUMN "destination_place_id" integer;--> statement-breakpoint
ALTER TABLE "rides" ADD COLUMN "destination_lat" double precision;--> statement-breakpoint
ALTER TABLE "rides" ADD COLUMN "destination_lon" double precision;--> statement-breakpoint
ALTER TABLE "place_zips" ADD CONSTRAINT "place_zips_place_id_places_id_fk" FOREIGN KEY ("place_id") REFERENCES "public"."places"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ride_asks" ADD CONSTRAINT "ride_asks_ride_id_rides_id_fk" FOREIGN KEY ("ride_id") REFERENCES "public"."rides"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ride_asks" ADD CONSTRAINT "ride_asks_request_id_delivery_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."delivery_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_ride_id_rides_id_fk" FOREIGN KEY ("ride_id") REFERENCES "public"."rides"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "places_state_name_idx" ON "places" USING btree ("state","name");--> statement-breakpoint
CREATE UNIQUE INDEX "ride_asks_ride_request_key" ON "ride_asks" USING btree ("ride_id","request_id");--> statement-breakpoint
CREATE INDEX "saved_searches_user_idx" ON "saved_searches" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "saved_searches_kind_idx" ON "saved_searches" USING btree ("kind");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_searches_ride_key" ON "saved_searches" USING btree ("ride_id");--> statement-breakpoint
ALTER TABLE "delivery_requests" ADD CONSTRAINT "delivery_requests_pickup_place_id_places_id_fk" FOREIGN KEY ("pickup_place_id") REFERENCES "public"."places"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_requests" ADD CONSTRAINT "delivery_requests_delivery_place_id_places_id_fk" FOREIGN KEY ("delivery_place_id") REFERENCES "public"."places"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rides" ADD CONSTRAINT "rides_origin_place_id_places_id_fk" FOREIGN KEY ("origin_place_id") REFERENCES "public"."places"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rides" ADD CONSTRAINT "rides_destination_place_id_places_id_fk" FOREIGN KEY ("destination_place_id") REFERENCES "public"."places"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_requests_open_pickup_point_idx" ON "delivery_requests" USING btree ("pickup_lat","pickup_lon") WHERE "delivery_requests"."status" = 'open' and "delivery_requests"."pickup_lat" is not null;--> statement-breakpoint
CREATE INDEX "delivery_requests_open_delivery_point_idx" ON "delivery_requests" USING btree ("delivery_lat","delivery_lon") WHERE "delivery_requests"."status" = 'open' and "delivery_requests"."delivery_lat" is not null;--> statement-breakpoint
CREATE INDEX "rides_active_origin_point_idx" ON "rides" USING btree ("origin_lat","origin_lon") WHERE "rides"."status" = 'active' and "rides"."origin_lat" is not null;--> statement-breakpoint
CREATE INDEX "rides_active_destination_point_idx" ON "rides" USING btree ("destination_lat","destination_lon") WHERE "rides"."status" = 'active' and "rides"."destination_lat" is not null;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('offer_received', 'offer_chosen', 'offer_declined', 'booking_cancelled', 'picked_up', 'delivery_completed', 'message', 'review_published', 'ride_ask', 'search_match', 'password_changed', 'email_changed', 'new_sign_in', 'two_factor_enabled', 'two_factor_disabled'));--> statement-breakpoint
-- Suggestions: town names by prefix (btree text_pattern_ops) and by similarity (trigram), folded.
CREATE INDEX "places_name_prefix_idx" ON "places" USING btree (rr_fold("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "places_name_trgm_idx" ON "places" USING gin (rr_fold("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "place_zips_place_idx" ON "place_zips" USING btree ("place_id");
