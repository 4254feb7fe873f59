CREATE TABLE "activity_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"actor_name" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"thermostat_id" text,
	"building_id" text,
	"summary" text NOT NULL,
	"changes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"outcome" text NOT NULL,
	"service_status" integer,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "buildings" (
	"user_id" uuid NOT NULL,
	"building_id" text NOT NULL,
	"name" text NOT NULL,
	"time_zone" text NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "buildings_user_id_building_id_pk" PRIMARY KEY("user_id","building_id")
);
--> statement-breakpoint
CREATE TABLE "thermostats" (
	"user_id" uuid NOT NULL,
	"thermostat_id" text NOT NULL,
	"building_id" text NOT NULL,
	"unit_label" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "thermostats_user_id_thermostat_id_pk" PRIMARY KEY("user_id","thermostat_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "temperature_unit" text DEFAULT 'F' NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buildings" ADD CONSTRAINT "buildings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thermostats" ADD CONSTRAINT "thermostats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_at_idx" ON "activity_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "activity_thermostat_idx" ON "activity_log" USING btree ("thermostat_id","at");--> statement-breakpoint
CREATE INDEX "activity_building_idx" ON "activity_log" USING btree ("building_id","at");--> statement-breakpoint
CREATE INDEX "thermostats_building_idx" ON "thermostats" USING btree ("user_id","building_id");