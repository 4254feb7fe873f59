CREATE TABLE "service_demand" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"wanted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "service_demand" ADD CONSTRAINT "service_demand_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;