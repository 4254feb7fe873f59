CREATE TABLE "maintenance_reminders" (
	"org_id" uuid NOT NULL,
	"thermostat_id" text NOT NULL,
	"enabled" boolean,
	"next_reminder_date" date,
	"read_at" timestamp with time zone,
	"tried_at" timestamp with time zone NOT NULL,
	"failure" text,
	CONSTRAINT "maintenance_reminders_org_id_thermostat_id_pk" PRIMARY KEY("org_id","thermostat_id")
);
--> statement-breakpoint
CREATE TABLE "pending_mode_changes" (
	"org_id" uuid NOT NULL,
	"thermostat_id" text NOT NULL,
	"mode" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	CONSTRAINT "pending_mode_changes_org_id_thermostat_id_pk" PRIMARY KEY("org_id","thermostat_id")
);
--> statement-breakpoint
ALTER TABLE "maintenance_reminders" ADD CONSTRAINT "maintenance_reminders_org_id_thermostat_id_thermostats_org_id_thermostat_id_fk" FOREIGN KEY ("org_id","thermostat_id") REFERENCES "public"."thermostats"("org_id","thermostat_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_mode_changes" ADD CONSTRAINT "pending_mode_changes_org_id_thermostat_id_thermostats_org_id_thermostat_id_fk" FOREIGN KEY ("org_id","thermostat_id") REFERENCES "public"."thermostats"("org_id","thermostat_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "maintenance_reminders_tried_idx" ON "maintenance_reminders" USING btree ("tried_at");