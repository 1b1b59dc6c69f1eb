CREATE TABLE "booking_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "booking_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"booking_id" uuid NOT NULL,
	"driver_id" uuid NOT NULL,
	"requester_id" uuid NOT NULL,
	"actor_id" uuid,
	"type" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"reason" text,
	"details" text,
	"created_at" timestamp (3) with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "booking_events_type_check" CHECK ("booking_events"."type" in ('offered', 'chosen', 'declined', 'withdrawn', 'cancelled', 'picked_up', 'completed', 'received', 'other_chosen', 'request_withdrawn')),
	CONSTRAINT "booking_events_from_check" CHECK ("booking_events"."from_status" in ('pending', 'confirmed', 'completed', 'declined', 'cancelled')),
	CONSTRAINT "booking_events_to_check" CHECK ("booking_events"."to_status" in ('pending', 'confirmed', 'completed', 'declined', 'cancelled')),
	CONSTRAINT "booking_events_reason_check" CHECK ("booking_events"."reason" in ('plans_changed', 'too_late', 'item_not_ready', 'other')),
	CONSTRAINT "booking_events_reason_when_cancelled" CHECK (("booking_events"."type" = 'cancelled') = ("booking_events"."reason" is not null)),
	CONSTRAINT "booking_events_details_length" CHECK (char_length("booking_events"."details") <= 500),
	CONSTRAINT "booking_events_details_with_reason" CHECK ("booking_events"."details" is null or "booking_events"."reason" is not null)
);
--> statement-breakpoint
CREATE TABLE "booking_photos" (
	"booking_id" uuid PRIMARY KEY NOT NULL,
	"image" "bytea" NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_photos_size" CHECK (octet_length("booking_photos"."image") between 1 and 10485760),
	CONSTRAINT "booking_photos_width" CHECK ("booking_photos"."width" between 1 and 1600),
	CONSTRAINT "booking_photos_height" CHECK ("booking_photos"."height" between 1 and 1600)
);
--> statement-breakpoint
DROP INDEX "bookings_request_driver_key";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "requester_id" uuid;--> statement-breakpoint
-- Hand-written: existing bookings get their request's owner before the column becomes NOT NULL.
UPDATE "bookings" SET "requester_id" = r."user_id" FROM "delivery_requests" r WHERE r."id" = "bookings"."request_id";--> statement-breakpoint
ALTER TABLE "bookings" ALTER COLUMN "requester_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "delivery_code" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "picked_up_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "booking_events" ADD CONSTRAINT "booking_events_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_events" ADD CONSTRAINT "booking_events_driver_id_users_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_events" ADD CONSTRAINT "booking_events_requester_id_users_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_events" ADD CONSTRAINT "booking_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_photos" ADD CONSTRAINT "booking_photos_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_events_booking_idx" ON "booking_events" USING btree ("booking_id","created_at","id");--> statement-breakpoint
CREATE INDEX "booking_events_driver_activity_idx" ON "booking_events" USING btree ("driver_id","created_at","id") WHERE "booking_events"."type" <> 'offered';--> statement-breakpoint
CREATE INDEX "booking_events_requester_activity_idx" ON "booking_events" USING btree ("requester_id","created_at","id") WHERE "booking_events"."type" not in ('offered', 'other_chosen', 'request_withdrawn');--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_requester_id_users_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bookings_request_idx" ON "bookings" USING btree ("request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_request_driver_live_key" ON "bookings" USING btree ("request_id","driver_id") WHERE "bookings"."status" in ('pending', 'confirmed', 'completed');--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_request_chosen_key" ON "bookings" USING btree ("request_id") WHERE "bookings"."status" in ('confirmed', 'completed');--> statement-breakpoint
CREATE INDEX "bookings_requester_created_idx" ON "bookings" USING btree ("requester_id","created_at","id");--> statement-breakpoint
-- Hand-written: a booking confirmed before this migration gets a code (none can exist through the API), and the
-- offers that a deleted request turned 'cancelled' become 'declined', as deleting a request now does.
UPDATE "bookings" SET "delivery_code" = lpad(floor(random() * 1000000)::int::text, 6, '0') WHERE "status" = 'confirmed';--> statement-breakpoint
UPDATE "bookings" SET "status" = 'declined' FROM "delivery_requests" r WHERE r."id" = "bookings"."request_id" AND r."status" = 'deleted' AND "bookings"."status" = 'cancelled';--> statement-breakpoint
-- Hand-written: history for existing bookings, so every timeline starts with its offer.
INSERT INTO "booking_events" ("booking_id", "driver_id", "requester_id", "actor_id", "type", "from_status", "to_status", "created_at") SELECT "id", "driver_id", "requester_id", "driver_id", 'offered', NULL, 'pending', "created_at" FROM "bookings";--> statement-breakpoint
INSERT INTO "booking_events" ("booking_id", "driver_id", "requester_id", "actor_id", "type", "from_status", "to_status") SELECT "id", "driver_id", "requester_id", "requester_id", 'request_withdrawn', 'pending', 'declined' FROM "bookings" WHERE "status" = 'declined';--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_delivery_code_format" CHECK ("bookings"."delivery_code" ~ '^[0-9]{6}$');--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_delivery_code_while_confirmed" CHECK (("bookings"."delivery_code" is not null) = ("bookings"."status" = 'confirmed'));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_picked_up_after_confirm" CHECK ("bookings"."picked_up_at" is null or "bookings"."status" in ('confirmed', 'completed', 'cancelled'));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_not_own_request" CHECK ("bookings"."driver_id" <> "bookings"."requester_id");