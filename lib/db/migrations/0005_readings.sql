CREATE TABLE "reading_history" (
	"org_id" uuid NOT NULL,
	"thermostat_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"temperature" real,
	"humidity" real,
	"desired_heat" real,
	"desired_cool" real,
	"hvac_mode" text,
	"equipment" text,
	"connected" boolean,
	CONSTRAINT "reading_history_org_id_thermostat_id_at_pk" PRIMARY KEY("org_id","thermostat_id","at")
);
--> statement-breakpoint
CREATE TABLE "readings" (
	"org_id" uuid NOT NULL,
	"thermostat_id" text NOT NULL,
	"status" jsonb,
	"read_at" timestamp with time zone,
	"tried_at" timestamp with time zone NOT NULL,
	"failure" text,
	"wanted_at" timestamp with time zone,
	CONSTRAINT "readings_org_id_thermostat_id_pk" PRIMARY KEY("org_id","thermostat_id")
);
--> statement-breakpoint
ALTER TABLE "reading_history" ADD CONSTRAINT "reading_history_org_id_thermostat_id_thermostats_org_id_thermostat_id_fk" FOREIGN KEY ("org_id","thermostat_id") REFERENCES "public"."thermostats"("org_id","thermostat_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "readings" ADD CONSTRAINT "readings_org_id_thermostat_id_thermostats_org_id_thermostat_id_fk" FOREIGN KEY ("org_id","thermostat_id") REFERENCES "public"."thermostats"("org_id","thermostat_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reading_history_at_idx" ON "reading_history" USING btree ("at");--> statement-breakpoint
CREATE INDEX "readings_tried_idx" ON "readings" USING btree ("tried_at");