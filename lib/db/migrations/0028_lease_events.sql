CREATE TABLE "lease_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"message_id" text NOT NULL,
	"source" text NOT NULL,
	"type" text NOT NULL,
	"external_unit_id" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"payload" jsonb NOT NULL,
	"outcome" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"unit_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"run_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"mapped_by_name" text,
	"mapped_at" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lease_inboxes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"secret_sealed" text NOT NULL,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lease_inboxes_org_id_unique" UNIQUE("org_id")
);
--> statement-breakpoint
ALTER TABLE "lease_events" ADD CONSTRAINT "lease_events_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lease_inboxes" ADD CONSTRAINT "lease_inboxes_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lease_events_message_idx" ON "lease_events" USING btree ("org_id","message_id");--> statement-breakpoint
CREATE INDEX "lease_events_org_received_idx" ON "lease_events" USING btree ("org_id","received_at");--> statement-breakpoint
CREATE INDEX "lease_events_units_idx" ON "lease_events" USING gin ("unit_ids");