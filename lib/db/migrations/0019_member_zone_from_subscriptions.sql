-- One clock: a member who chose a zone for their notification email before members had a zone
-- of their own keeps it, for every page as for the email (rather than pages in the buildings'
-- zone and the digest in theirs).
UPDATE "users" SET "time_zone" = "notification_subscriptions"."time_zone"
FROM "notification_subscriptions"
WHERE "notification_subscriptions"."user_id" = "users"."id" AND "users"."time_zone" IS NULL;
