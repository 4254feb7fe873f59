CREATE TABLE "occupancy_policies" (
	"org_id" uuid NOT NULL,
	"building_id" text DEFAULT '' NOT NULL,
	"state" text NOT NULL,
	"template_id" uuid,
	"resident_mode" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by_name" text NOT NULL,
	CONSTRAINT "occupancy_policies_org_id_building_id_state_pk" PRIMARY KEY("org_id","building_id","state")
);
--> statement-breakpoint
ALTER TABLE "occupancy_policies" ADD CONSTRAINT "occupancy_policies_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "occupancy_policies" ADD CONSTRAINT "occupancy_policies_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE set null ON UPDATE no action;