-- Issue 14, faster matching of new posts against saved searches, and 'Near' / along the route reading indexes
-- only (docs/places.md, docs/along-route.md). saved_searches.last_emailed_at was never used: the alert e-mails'
-- hourly throttle reads notifications.emailed_at (src/server/notifications/mail-job.ts).
DROP INDEX "saved_searches_kind_idx";--> statement-breakpoint
ALTER TABLE "saved_searches" ADD COLUMN "box_min_lat" double precision;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD COLUMN "box_max_lat" double precision;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD COLUMN "box_min_lon" double precision;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD COLUMN "box_max_lon" double precision;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD COLUMN "words" text[] GENERATED ALWAYS AS (array_remove(regexp_split_to_array(rr_fold(filters ->> 'q'), '[^[:alnum:]]+'), '')) STORED;--> statement-breakpoint
-- Suggestions: a typo in a town's first two letters ('Dpringfield') finds it by LIKE '%rest%' on trigrams.
CREATE INDEX "places_fold_trgm_idx" ON "places" USING gin ("fold" gin_trgm_ops);--> statement-breakpoint
-- Existing searches get the boxes the service now writes when one is saved (src/server/alerts/service.ts), with
-- the same arithmetic: 'Near' -> boxAround(place, within) (src/server/places/geo.ts: 3958.8-mile mean radius,
-- longitude widened by the cosine of the box's latitude farthest from the equator); a route alert -> its ride's
-- bounding box widened by the default 5-mile corridor in the ride's frame (corridorBox, along-route/geometry.ts).
UPDATE "saved_searches" s SET
  box_min_lat = p.lat - (s.filters ->> 'within')::float8 / (pi() * 3958.8 / 180),
  box_max_lat = p.lat + (s.filters ->> 'within')::float8 / (pi() * 3958.8 / 180),
  box_min_lon = p.lon - (s.filters ->> 'within')::float8 / ((pi() * 3958.8 / 180)
    * cos(radians(least(89, abs(p.lat) + (s.filters ->> 'within')::float8 / (pi() * 3958.8 / 180))))),
  box_max_lon = p.lon + (s.filters ->> 'within')::float8 / ((pi() * 3958.8 / 180)
    * cos(radians(least(89, abs(p.lat) + (s.filters ->> 'within')::float8 / (pi() * 3958.8 / 180)))))
FROM "places" p
WHERE s.ride_id IS NULL AND p.id = (s.filters ->> 'near')::int;--> statement-breakpoint
UPDATE "saved_searches" s SET
  box_min_lat = least(r.origin_lat, r.destination_lat) - 5 / (pi() * 3958.8 / 180),
  box_max_lat = greatest(r.origin_lat, r.destination_lat) + 5 / (pi() * 3958.8 / 180),
  box_min_lon = least(r.origin_lon, r.destination_lon)
    - 5 / (cos(radians((r.origin_lat + r.destination_lat) / 2)) * (pi() * 3958.8 / 180)),
  box_max_lon = greatest(r.origin_lon, r.destination_lon)
    + 5 / (cos(radians((r.origin_lat + r.destination_lat) / 2)) * (pi() * 3958.8 / 180))
FROM "rides" r
WHERE r.id = s.ride_id AND r.origin_lat IS NOT NULL AND r.destination_lat IS NOT NULL;--> statement-breakpoint
CREATE INDEX "saved_searches_anywhere_idx" ON "saved_searches" USING btree ("kind") WHERE "saved_searches"."box_min_lat" is null;--> statement-breakpoint
CREATE INDEX "saved_searches_box_idx" ON "saved_searches" USING gist (box(point("box_min_lon", "box_min_lat"), point("box_max_lon", "box_max_lat"))) WHERE "saved_searches"."box_min_lat" is not null;--> statement-breakpoint
CREATE INDEX "users_suspended_idx" ON "users" USING btree ("id") WHERE "users"."suspended_at" is not null;--> statement-breakpoint
ALTER TABLE "saved_searches" DROP COLUMN "last_emailed_at";--> statement-breakpoint
-- The point indexes carry what 'Near' and along the route test before cutting a page, so those candidates are
-- read from the index alone (drizzle cannot declare INCLUDE: same names and keys as in schema.ts).
DROP INDEX "delivery_requests_open_pickup_point_idx";--> statement-breakpoint
CREATE INDEX "delivery_requests_open_pickup_point_idx" ON "delivery_requests" USING btree ("pickup_lat","pickup_lon") INCLUDE ("delivery_lat","delivery_lon","needed_by_date","user_id","id") WHERE "delivery_requests"."status" = 'open' and "delivery_requests"."pickup_lat" is not null;--> statement-breakpoint
DROP INDEX "delivery_requests_open_delivery_point_idx";--> statement-breakpoint
CREATE INDEX "delivery_requests_open_delivery_point_idx" ON "delivery_requests" USING btree ("delivery_lat","delivery_lon") INCLUDE ("needed_by_date","user_id","id") WHERE "delivery_requests"."status" = 'open' and "delivery_requests"."delivery_lat" is not null;--> statement-breakpoint
DROP INDEX "rides_active_origin_point_idx";--> statement-breakpoint
CREATE INDEX "rides_active_origin_point_idx" ON "rides" USING btree ("origin_lat","origin_lon") INCLUDE ("departure_date","user_id","id") WHERE "rides"."status" = 'active' and "rides"."origin_lat" is not null;--> statement-breakpoint
DROP INDEX "rides_active_destination_point_idx";--> statement-breakpoint
CREATE INDEX "rides_active_destination_point_idx" ON "rides" USING btree ("destination_lat","destination_lon") INCLUDE ("departure_date","user_id","id") WHERE "rides"."status" = 'active' and "rides"."destination_lat" is not null;
