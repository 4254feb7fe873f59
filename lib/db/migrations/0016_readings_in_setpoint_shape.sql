ALTER TABLE "readings" ADD COLUMN "last_connected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "readings" ADD COLUMN "offline_since" timestamp with time zone;--> statement-breakpoint
-- Readings were kept in the shape the sandbox used to send (`connected`, `lastSeen`,
-- `equipmentStatus`, `currentComfortSettingRef`, `pendingHvacMode` ...), which the production
-- service does not have. They are now kept in Setpoint's own shape (lib/thermostat-api/schemas.ts
-- `ThermostatStatus`); when a thermostat was last seen connected, and since when it has been
-- offline, are Setpoint's own columns. A comfort setting kept only as a ref has no name here: it
-- reads as unknown until the next reading.
UPDATE "readings" SET
  "last_connected_at" = CASE
    WHEN "status"->'connected' = 'true'::jsonb THEN "read_at"
    WHEN "status"->>'lastSeen' ~ '^\d{4}-\d\d-\d\dT\d\d:\d\d' THEN ("status"->>'lastSeen')::timestamptz
  END,
  "offline_since" = CASE
    WHEN "status"->'connected' = 'false'::jsonb THEN coalesce(
      CASE WHEN "status"->>'lastSeen' ~ '^\d{4}-\d\d-\d\dT\d\d:\d\d'
        THEN ("status"->>'lastSeen')::timestamptz END,
      "read_at")
  END
WHERE "status" IS NOT NULL AND ("status" ? 'connected' OR "status" ? 'lastSeen');
--> statement-breakpoint
UPDATE "readings" SET "status" = jsonb_strip_nulls(jsonb_build_object(
  'isResidentMode', "status"->'isResidentMode',
  'setPoint', "status"->'setPoint',
  'hvacMode', "status"->'hvacMode',
  'connected', "status"->'connected',
  'temperature', "status"->'temperature',
  'humidity', "status"->'humidity',
  'heatCoolMinDelta', "status"->'heatCoolMinDelta',
  'runningEquipment', CASE
    WHEN jsonb_typeof("status"->'equipmentStatus') = 'string'
      THEN to_jsonb(coalesce(string_to_array(nullif("status"->>'equipmentStatus', ''), ','), ARRAY[]::text[]))
  END
))
WHERE "status" IS NOT NULL AND NOT ("status" ? 'runningEquipment');
--> statement-breakpoint
-- Pending mode changes were the service's own field, which production does not send; they are
-- now the changes Setpoint itself asked for.
DELETE FROM "pending_mode_changes";
--> statement-breakpoint
-- Stored templates, plans, undo states and activity: schedule ranges count slots (firstSlot,
-- lastSlot, both included) in Setpoint's own words, and hold actions are the production v2 values
-- (the consumer API's names nextPeriod, useEndTime2hour and useEndTime4hour are what those mean).
UPDATE "templates" SET "body" = replace(replace(replace(replace(replace("body"::text,
  '"firstTimeBlock":', '"firstSlot":'), '"lastTimeBlock":', '"lastSlot":'),
  '"nextPeriod"', '"nextTransition"'), '"useEndTime2hour"', '"2hour"'), '"useEndTime4hour"', '"4hour"')::jsonb
WHERE "body"::text ~ '"(firstTimeBlock|lastTimeBlock|nextPeriod|useEndTime2hour|useEndTime4hour)"';
--> statement-breakpoint
UPDATE "bulk_runs" SET "changes" = replace(replace(replace(replace(replace("changes"::text,
  '"firstTimeBlock":', '"firstSlot":'), '"lastTimeBlock":', '"lastSlot":'),
  '"nextPeriod"', '"nextTransition"'), '"useEndTime2hour"', '"2hour"'), '"useEndTime4hour"', '"4hour"')::jsonb
WHERE "changes"::text ~ '"(firstTimeBlock|lastTimeBlock|nextPeriod|useEndTime2hour|useEndTime4hour)"';
--> statement-breakpoint
UPDATE "bulk_run_items" SET
  "target" = replace(replace(replace(replace(replace("target"::text,
    '"firstTimeBlock":', '"firstSlot":'), '"lastTimeBlock":', '"lastSlot":'),
    '"nextPeriod"', '"nextTransition"'), '"useEndTime2hour"', '"2hour"'), '"useEndTime4hour"', '"4hour"')::jsonb,
  "expected" = replace(replace(replace(replace(replace("expected"::text,
    '"firstTimeBlock":', '"firstSlot":'), '"lastTimeBlock":', '"lastSlot":'),
    '"nextPeriod"', '"nextTransition"'), '"useEndTime2hour"', '"2hour"'), '"useEndTime4hour"', '"4hour"')::jsonb,
  "before" = replace(replace(replace(replace(replace("before"::text,
    '"firstTimeBlock":', '"firstSlot":'), '"lastTimeBlock":', '"lastSlot":'),
    '"nextPeriod"', '"nextTransition"'), '"useEndTime2hour"', '"2hour"'), '"useEndTime4hour"', '"4hour"')::jsonb,
  "plan" = replace(replace(replace(replace(replace("plan"::text,
    '"firstTimeBlock":', '"firstSlot":'), '"lastTimeBlock":', '"lastSlot":'),
    '"nextPeriod"', '"nextTransition"'), '"useEndTime2hour"', '"2hour"'), '"useEndTime4hour"', '"4hour"')::jsonb
WHERE coalesce("target"::text, '') || coalesce("expected"::text, '') || coalesce("before"::text, '') || coalesce("plan"::text, '')
  ~ '"(firstTimeBlock|lastTimeBlock|nextPeriod|useEndTime2hour|useEndTime4hour)"';
--> statement-breakpoint
UPDATE "activity_log" SET "changes" = replace(replace(replace(replace(replace("changes"::text,
  '"firstTimeBlock":', '"firstSlot":'), '"lastTimeBlock":', '"lastSlot":'),
  '"nextPeriod"', '"nextTransition"'), '"useEndTime2hour"', '"2hour"'), '"useEndTime4hour"', '"4hour"')::jsonb
WHERE "changes"::text ~ '"(firstTimeBlock|lastTimeBlock|nextPeriod|useEndTime2hour|useEndTime4hour)"';
