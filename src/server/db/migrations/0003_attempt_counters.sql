CREATE TABLE "attempt_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"window_start" timestamp (3) with time zone NOT NULL,
	"window_end" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "attempt_counters_window_end_idx" ON "attempt_counters" USING btree ("window_end");