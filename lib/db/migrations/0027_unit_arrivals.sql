ALTER TABLE "unit_thermostats" ADD COLUMN "settled_at" timestamp with time zone;--> statement-breakpoint
-- Thermostats already in their units came in before Setpoint put arrivals in their settings.
UPDATE "unit_thermostats" SET "settled_at" = "from_at";
