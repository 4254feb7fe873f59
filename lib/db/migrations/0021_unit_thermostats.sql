CREATE TABLE "unit_thermostats" (
	"unit_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"thermostat_id" text NOT NULL,
	"from_at" timestamp with time zone DEFAULT now() NOT NULL,
	"until_at" timestamp with time zone,
	CONSTRAINT "unit_thermostats_unit_id_from_at_pk" PRIMARY KEY("unit_id","from_at")
);
--> statement-breakpoint
ALTER TABLE "reading_history" DROP CONSTRAINT "reading_history_org_id_thermostat_id_thermostats_org_id_thermostat_id_fk";
--> statement-breakpoint
ALTER TABLE "unit_thermostats" ADD CONSTRAINT "unit_thermostats_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_thermostats" ADD CONSTRAINT "unit_thermostats_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "unit_thermostats_thermostat_idx" ON "unit_thermostats" USING btree ("org_id","thermostat_id");--> statement-breakpoint
-- Each unit's thermostat has been in it since it was added to the portfolio.
INSERT INTO "unit_thermostats" ("unit_id", "org_id", "thermostat_id", "from_at")
SELECT "units"."id", "units"."org_id", "units"."thermostat_id", "thermostats"."created_at"
FROM "units" JOIN "thermostats" ON "thermostats"."org_id" = "units"."org_id" AND "thermostats"."thermostat_id" = "units"."thermostat_id";
