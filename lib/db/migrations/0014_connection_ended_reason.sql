ALTER TABLE "service_connections" ADD COLUMN "ended_reason" text;--> statement-breakpoint
-- Connections that ended before the reason had a column of its own: read from the recorded text.
UPDATE "service_connections" SET "ended_reason" = CASE
  WHEN "last_error" LIKE 'Stored tokens unreadable%' THEN 'tokens_unreadable'
  ELSE 'refresh_refused'
END WHERE "status" = 'reconnect';
