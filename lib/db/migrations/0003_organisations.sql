-- Organisations: the portfolio, the service connection and the activity log move from each
-- account to an organisation. Every existing account becomes the owner of an organisation of its
-- own, whose id is the account's id, so its rows are re-keyed without losing any.
CREATE TABLE "organizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"sso_domain" text,
	"sso_default_role" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_sso_domain_idx" ON "organizations" USING btree ("sso_domain");--> statement-breakpoint
CREATE TABLE "memberships" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memberships_org_idx" ON "memberships" USING btree ("org_id");--> statement-breakpoint
INSERT INTO "organizations" ("id", "name", "created_at")
	SELECT "id", left("name", 80) || '’s organisation', "created_at" FROM "users";--> statement-breakpoint
INSERT INTO "memberships" ("user_id", "org_id", "role", "created_at")
	SELECT "id", "id", 'owner', "created_at" FROM "users";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint

-- Buildings and thermostats: keyed by organisation.
ALTER TABLE "buildings" ADD COLUMN "org_id" uuid;--> statement-breakpoint
UPDATE "buildings" SET "org_id" = "user_id";--> statement-breakpoint
ALTER TABLE "buildings" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "buildings" DROP CONSTRAINT "buildings_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "buildings" DROP CONSTRAINT "buildings_user_id_building_id_pk";--> statement-breakpoint
ALTER TABLE "buildings" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "buildings" ADD CONSTRAINT "buildings_org_id_building_id_pk" PRIMARY KEY("org_id","building_id");--> statement-breakpoint
ALTER TABLE "buildings" ADD CONSTRAINT "buildings_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint

ALTER TABLE "thermostats" ADD COLUMN "org_id" uuid;--> statement-breakpoint
ALTER TABLE "thermostats" ADD COLUMN "moving_to" text;--> statement-breakpoint
UPDATE "thermostats" SET "org_id" = "user_id";--> statement-breakpoint
ALTER TABLE "thermostats" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
DROP INDEX "thermostats_building_idx";--> statement-breakpoint
ALTER TABLE "thermostats" DROP CONSTRAINT "thermostats_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "thermostats" DROP CONSTRAINT "thermostats_user_id_thermostat_id_pk";--> statement-breakpoint
ALTER TABLE "thermostats" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "thermostats" ADD CONSTRAINT "thermostats_org_id_thermostat_id_pk" PRIMARY KEY("org_id","thermostat_id");--> statement-breakpoint
ALTER TABLE "thermostats" ADD CONSTRAINT "thermostats_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "thermostats_building_idx" ON "thermostats" USING btree ("org_id","building_id");--> statement-breakpoint

-- Building managers' buildings, and invitations.
CREATE TABLE "member_buildings" (
	"user_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"building_id" text NOT NULL,
	CONSTRAINT "member_buildings_user_id_building_id_pk" PRIMARY KEY("user_id","building_id")
);
--> statement-breakpoint
ALTER TABLE "member_buildings" ADD CONSTRAINT "member_buildings_user_id_memberships_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."memberships"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_buildings" ADD CONSTRAINT "member_buildings_org_id_building_id_buildings_org_id_building_id_fk" FOREIGN KEY ("org_id","building_id") REFERENCES "public"."buildings"("org_id","building_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"building_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" uuid,
	"invited_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "invitations_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invitations_org_idx" ON "invitations" USING btree ("org_id","created_at");--> statement-breakpoint

-- The service connection: one per organisation; who connected it is kept.
ALTER TABLE "service_connections" ADD COLUMN "org_id" uuid;--> statement-breakpoint
ALTER TABLE "service_connections" ADD COLUMN "connected_by" uuid;--> statement-breakpoint
ALTER TABLE "service_connections" ADD COLUMN "connected_by_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "service_connections" ADD COLUMN "account_id" text;--> statement-breakpoint
ALTER TABLE "service_connections" ADD COLUMN "account_name" text;--> statement-breakpoint
UPDATE "service_connections" AS "c" SET "org_id" = "c"."user_id", "connected_by" = "c"."user_id",
	"connected_by_name" = "u"."name" FROM "users" AS "u" WHERE "u"."id" = "c"."user_id";--> statement-breakpoint
ALTER TABLE "service_connections" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "service_connections" DROP CONSTRAINT "service_connections_user_id_unique";--> statement-breakpoint
ALTER TABLE "service_connections" DROP CONSTRAINT "service_connections_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "service_connections" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "service_connections" ADD CONSTRAINT "service_connections_org_id_unique" UNIQUE("org_id");--> statement-breakpoint
ALTER TABLE "service_connections" ADD CONSTRAINT "service_connections_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_connections" ADD CONSTRAINT "service_connections_connected_by_users_id_fk" FOREIGN KEY ("connected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint

-- The activity log: every entry belongs to the organisation of the account that made it, and
-- actions become `resource.verb` (lib/activity-actions.ts). An entry whose account was deleted
-- before this migration cannot be placed: it keeps a null organisation and no one lists it.
ALTER TABLE "activity_log" ADD COLUMN "org_id" uuid;--> statement-breakpoint
UPDATE "activity_log" SET "org_id" = "user_id" WHERE "user_id" IS NOT NULL;--> statement-breakpoint
UPDATE "activity_log" SET "action" = CASE "action"
	WHEN 'resident_mode' THEN 'resident_mode.update'
	WHEN 'move' THEN 'thermostat.move'
	WHEN 'create_thermostat' THEN 'thermostat.create'
	WHEN 'configuration' THEN 'configuration.update'
	WHEN 'bulk_configuration' THEN 'configuration.bulk_update'
	WHEN 'access_control' THEN 'access_control.update'
	WHEN 'alerts' THEN 'alert_settings.update'
	ELSE "action" END;--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
DROP INDEX "activity_at_idx";--> statement-breakpoint
DROP INDEX "activity_thermostat_idx";--> statement-breakpoint
DROP INDEX "activity_building_idx";--> statement-breakpoint
CREATE INDEX "activity_org_at_idx" ON "activity_log" USING btree ("org_id","at");--> statement-breakpoint
CREATE INDEX "activity_thermostat_idx" ON "activity_log" USING btree ("org_id","thermostat_id","at");--> statement-breakpoint
CREATE INDEX "activity_building_idx" ON "activity_log" USING btree ("org_id","building_id","at");
