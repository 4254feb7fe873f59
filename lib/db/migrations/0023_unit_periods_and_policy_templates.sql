ALTER TABLE "occupancy_policies" DROP CONSTRAINT "occupancy_policies_template_id_templates_id_fk";
--> statement-breakpoint
ALTER TABLE "occupancy_policies" ADD CONSTRAINT "occupancy_policies_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "unit_thermostats_open_idx" ON "unit_thermostats" USING btree ("unit_id") WHERE until_at is null;