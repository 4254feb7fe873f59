CREATE TABLE "service_budget" (
	"id" integer PRIMARY KEY NOT NULL,
	"hold_until" timestamp with time zone,
	"minute_remaining" integer,
	"minute_remaining_at" timestamp with time zone,
	"hour_remaining" integer,
	"hour_remaining_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "service_calls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"kind" text NOT NULL,
	"org_id" uuid,
	"priority" smallint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "service_calls_kind_at_idx" ON "service_calls" USING btree ("kind","at");--> statement-breakpoint
INSERT INTO "service_budget" ("id") VALUES (1) ON CONFLICT DO NOTHING;
