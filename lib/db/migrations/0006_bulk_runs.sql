CREATE TABLE "bulk_run_items" (
	"run_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"thermostat_id" text NOT NULL,
	"building_id" text NOT NULL,
	"outcome" text DEFAULT 'pending' NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "bulk_run_items_run_id_thermostat_id_pk" PRIMARY KEY("run_id","thermostat_id")
);
--> statement-breakpoint
CREATE TABLE "bulk_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"started_by" uuid,
	"started_by_name" text NOT NULL,
	"changes" jsonb NOT NULL,
	"retry_of" uuid,
	"state" text DEFAULT 'queued' NOT NULL,
	"total" integer NOT NULL,
	"applied" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"not_sent" integer DEFAULT 0 NOT NULL,
	"cancelled" integer DEFAULT 0 NOT NULL,
	"note" text,
	"cancel_requested_at" timestamp with time zone,
	"cancelled_by_name" text,
	"not_before" timestamp with time zone,
	"job_id" text,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "run_id" uuid;--> statement-breakpoint
ALTER TABLE "bulk_run_items" ADD CONSTRAINT "bulk_run_items_run_id_bulk_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."bulk_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD CONSTRAINT "bulk_runs_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD CONSTRAINT "bulk_runs_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD CONSTRAINT "bulk_runs_retry_of_bulk_runs_id_fk" FOREIGN KEY ("retry_of") REFERENCES "public"."bulk_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bulk_run_items_position_idx" ON "bulk_run_items" USING btree ("run_id","position");--> statement-breakpoint
CREATE INDEX "bulk_run_items_thermostat_idx" ON "bulk_run_items" USING btree ("thermostat_id","run_id");--> statement-breakpoint
CREATE INDEX "bulk_run_items_building_idx" ON "bulk_run_items" USING btree ("building_id","run_id");--> statement-breakpoint
CREATE INDEX "bulk_runs_org_created_idx" ON "bulk_runs" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "bulk_runs_unfinished_idx" ON "bulk_runs" USING btree ("state") WHERE "bulk_runs"."state" in ('queued', 'running');--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_run_id_bulk_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."bulk_runs"("id") ON DELETE set null ON UPDATE no action;