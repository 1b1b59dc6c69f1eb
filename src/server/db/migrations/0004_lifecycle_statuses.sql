ALTER TABLE "bookings" DROP CONSTRAINT "bookings_status_check";--> statement-breakpoint
UPDATE "delivery_requests" SET "status" = 'open' WHERE "status" = 'closed';--> statement-breakpoint
ALTER TABLE "delivery_requests" DROP CONSTRAINT "delivery_requests_status_check";--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_status_check" CHECK ("bookings"."status" in ('pending', 'confirmed', 'completed', 'declined', 'cancelled'));--> statement-breakpoint
ALTER TABLE "delivery_requests" ADD CONSTRAINT "delivery_requests_status_check" CHECK ("delivery_requests"."status" in ('open', 'matched', 'completed', 'deleted'));