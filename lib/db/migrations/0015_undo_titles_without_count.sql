-- An undo run's title no longer carries the count its planner saw ("… on 30 thermostats"): the
-- count is added wherever the run is named, as the run's own (lib/templates/run-words.ts).
UPDATE "bulk_runs" SET "title" = regexp_replace("title", ' (on|of) [0-9][0-9,]* thermostats?$', '')
WHERE "kind" = 'undo' AND "title" ~ ' (on|of) [0-9][0-9,]* thermostats?$';
