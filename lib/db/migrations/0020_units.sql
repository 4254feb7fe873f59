CREATE TABLE "unit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"unit_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"event" text NOT NULL,
	"from_state" text NOT NULL,
	"to_state" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"user_id" uuid,
	"actor_name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "unit_occupancy" (
	"unit_id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"state" text NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"move_out_on" date,
	"move_in_at" timestamp with time zone,
	"ready" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "units" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"building_id" text NOT NULL,
	"label" text NOT NULL,
	"external_id" text,
	"thermostat_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "unit_events" ADD CONSTRAINT "unit_events_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_events" ADD CONSTRAINT "unit_events_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_events" ADD CONSTRAINT "unit_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_occupancy" ADD CONSTRAINT "unit_occupancy_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_occupancy" ADD CONSTRAINT "unit_occupancy_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "unit_events_unit_idx" ON "unit_events" USING btree ("unit_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "units_thermostat_idx" ON "units" USING btree ("org_id","thermostat_id");--> statement-breakpoint
CREATE UNIQUE INDEX "units_external_id_idx" ON "units" USING btree ("org_id","external_id");--> statement-breakpoint
CREATE INDEX "units_building_idx" ON "units" USING btree ("org_id","building_id");--> statement-breakpoint
-- A thermostat that leaves the portfolio leaves its unit empty; the unit, its occupancy and its
-- timeline stay (PostgreSQL 15's column list for SET NULL keeps org_id).
ALTER TABLE "units" ADD CONSTRAINT "units_thermostat_fk" FOREIGN KEY ("org_id","thermostat_id") REFERENCES "public"."thermostats"("org_id","thermostat_id") ON DELETE SET NULL ("thermostat_id") ON UPDATE no action;--> statement-breakpoint
-- Every thermostat already in a portfolio becomes a unit of its own, labelled as it is (its id
-- where it has no label). No occupancy row: a unit nobody has said otherwise of is occupied.
INSERT INTO "units" ("org_id", "building_id", "label", "thermostat_id", "created_at")
SELECT "org_id", "building_id", CASE WHEN "unit_label" = '' THEN "thermostat_id" ELSE "unit_label" END, "thermostat_id", "created_at"
FROM "thermostats";
