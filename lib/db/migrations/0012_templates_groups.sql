CREATE TABLE "template_assignments" (
	"org_id" uuid NOT NULL,
	"thermostat_id" text NOT NULL,
	"template_id" uuid NOT NULL,
	"run_id" uuid,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone,
	"drift" jsonb,
	CONSTRAINT "template_assignments_org_id_thermostat_id_pk" PRIMARY KEY("org_id","thermostat_id")
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"body" jsonb NOT NULL,
	"updated_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "thermostat_group_members" (
	"group_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"thermostat_id" text NOT NULL,
	CONSTRAINT "thermostat_group_members_group_id_thermostat_id_pk" PRIMARY KEY("group_id","thermostat_id")
);
--> statement-breakpoint
CREATE TABLE "thermostat_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"name" text NOT NULL,
	"filter" jsonb,
	"updated_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "bulk_runs_unfinished_idx";--> statement-breakpoint
ALTER TABLE "bulk_run_items" ADD COLUMN "plan_state" text;--> statement-breakpoint
ALTER TABLE "bulk_run_items" ADD COLUMN "target" jsonb;--> statement-breakpoint
ALTER TABLE "bulk_run_items" ADD COLUMN "expected" jsonb;--> statement-breakpoint
ALTER TABLE "bulk_run_items" ADD COLUMN "before" jsonb;--> statement-breakpoint
ALTER TABLE "bulk_run_items" ADD COLUMN "plan" jsonb;--> statement-breakpoint
ALTER TABLE "bulk_run_items" ADD COLUMN "warning" text;--> statement-breakpoint
ALTER TABLE "bulk_run_items" ADD COLUMN "done_ops" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bulk_run_items" ADD COLUMN "created" jsonb;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD COLUMN "kind" text DEFAULT 'configuration' NOT NULL;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD COLUMN "title" text;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD COLUMN "template_id" uuid;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD COLUMN "undo_of" uuid;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD COLUMN "undo_of_entry" integer;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD COLUMN "plan_summary" jsonb;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD COLUMN "planned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "template_assignments" ADD CONSTRAINT "template_assignments_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_assignments" ADD CONSTRAINT "template_assignments_run_id_bulk_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."bulk_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_assignments" ADD CONSTRAINT "template_assignments_org_id_thermostat_id_thermostats_org_id_thermostat_id_fk" FOREIGN KEY ("org_id","thermostat_id") REFERENCES "public"."thermostats"("org_id","thermostat_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thermostat_group_members" ADD CONSTRAINT "thermostat_group_members_group_id_thermostat_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."thermostat_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thermostat_group_members" ADD CONSTRAINT "thermostat_group_members_org_id_thermostat_id_thermostats_org_id_thermostat_id_fk" FOREIGN KEY ("org_id","thermostat_id") REFERENCES "public"."thermostats"("org_id","thermostat_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thermostat_groups" ADD CONSTRAINT "thermostat_groups_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "template_assignments_template_idx" ON "template_assignments" USING btree ("template_id");--> statement-breakpoint
CREATE UNIQUE INDEX "templates_org_name_idx" ON "templates" USING btree ("org_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "thermostat_groups_org_name_idx" ON "thermostat_groups" USING btree ("org_id",lower("name"));--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD CONSTRAINT "bulk_runs_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD CONSTRAINT "bulk_runs_undo_of_bulk_runs_id_fk" FOREIGN KEY ("undo_of") REFERENCES "public"."bulk_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_runs_unfinished_idx" ON "bulk_runs" USING btree ("state") WHERE "bulk_runs"."state" in ('planning', 'queued', 'running');