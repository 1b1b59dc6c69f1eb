CREATE TABLE "bookings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"driver_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bookings_status_check" CHECK ("bookings"."status" in ('pending', 'confirmed', 'completed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "delivery_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"pickup_location" text NOT NULL,
	"delivery_location" text NOT NULL,
	"needed_by_date" date,
	"compensation_cents" integer,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_requests_title_length" CHECK (char_length("delivery_requests"."title") between 1 and 200),
	CONSTRAINT "delivery_requests_description_length" CHECK (char_length("delivery_requests"."description") between 1 and 2000),
	CONSTRAINT "delivery_requests_pickup_length" CHECK (char_length("delivery_requests"."pickup_location") between 1 and 500),
	CONSTRAINT "delivery_requests_delivery_length" CHECK (char_length("delivery_requests"."delivery_location") between 1 and 500),
	CONSTRAINT "delivery_requests_compensation_range" CHECK ("delivery_requests"."compensation_cents" between 0 and 1000000),
	CONSTRAINT "delivery_requests_status_check" CHECK ("delivery_requests"."status" in ('open', 'closed', 'deleted'))
);
--> statement-breakpoint
CREATE TABLE "rides" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"origin" text NOT NULL,
	"destination" text NOT NULL,
	"departure_date" date NOT NULL,
	"departure_time" time,
	"available_space" text,
	"notes" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rides_origin_length" CHECK (char_length("rides"."origin") between 1 and 500),
	CONSTRAINT "rides_destination_length" CHECK (char_length("rides"."destination") between 1 and 500),
	CONSTRAINT "rides_available_space_length" CHECK (char_length("rides"."available_space") <= 200),
	CONSTRAINT "rides_notes_length" CHECK (char_length("rides"."notes") <= 1000),
	CONSTRAINT "rides_status_check" CHECK ("rides"."status" in ('active', 'cancelled', 'completed'))
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_request_id_delivery_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."delivery_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_driver_id_users_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_requests" ADD CONSTRAINT "delivery_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rides" ADD CONSTRAINT "rides_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_request_driver_key" ON "bookings" USING btree ("request_id","driver_id");--> statement-breakpoint
CREATE INDEX "bookings_driver_created_idx" ON "bookings" USING btree ("driver_id","created_at","id");--> statement-breakpoint
CREATE INDEX "delivery_requests_user_created_idx" ON "delivery_requests" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "delivery_requests_open_created_idx" ON "delivery_requests" USING btree ("created_at","id") WHERE "delivery_requests"."status" = 'open';--> statement-breakpoint
CREATE INDEX "rides_user_departure_idx" ON "rides" USING btree ("user_id","departure_date",coalesce("departure_time", time '24:00'),"id");--> statement-breakpoint
CREATE INDEX "rides_active_departure_idx" ON "rides" USING btree ("departure_date",coalesce("departure_time", time '24:00'),"id") WHERE "rides"."status" = 'active';