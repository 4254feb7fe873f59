CREATE TABLE "unit_steps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	"step" text NOT NULL,
	"move_in_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"result" text,
	"done_at" timestamp with time zone,
	"run_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "move_in_lead_minutes" integer DEFAULT 240 NOT NULL;--> statement-breakpoint
ALTER TABLE "unit_steps" ADD CONSTRAINT "unit_steps_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_steps" ADD CONSTRAINT "unit_steps_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unit_steps" ADD CONSTRAINT "unit_steps_run_id_bulk_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."bulk_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "unit_steps_due_idx" ON "unit_steps" USING btree ("due_at") WHERE "unit_steps"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "unit_steps_unit_idx" ON "unit_steps" USING btree ("unit_id","due_at");--> statement-breakpoint
-- Move-ins already scheduled get their two steps, at the default lead of four hours.
INSERT INTO "unit_steps" ("org_id", "unit_id", "step", "move_in_at", "due_at")
SELECT o."org_id", o."unit_id", s."step", o."move_in_at",
  CASE WHEN s."step" = 'prepare' THEN o."move_in_at" - interval '240 minutes' ELSE o."move_in_at" END
FROM "unit_occupancy" o CROSS JOIN (VALUES ('prepare'), ('move_in')) AS s("step")
WHERE o."state" = 'move_in_scheduled' AND o."move_in_at" IS NOT NULL;
