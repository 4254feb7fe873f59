-- A natural sort key: runs of digits become their length (3 digits) and value without leading
-- zeros, the rest lower case, so that "Unit 101" sorts before "Unit 1001" under collate "C".
CREATE FUNCTION natural_sort_key(label text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  select coalesce(string_agg(
    case when part ~ '^[0-9]'
      then lpad(length(digits)::text, 3, '0') || digits
      else lower(part)
    end, '' order by n), '')
  from regexp_matches(label, '[0-9]+|[^0-9]+', 'g') with ordinality as m(parts, n),
    lateral (select parts[1] as part) as p,
    lateral (select coalesce(nullif(ltrim(part, '0'), ''), '0') as digits) as d
$$;--> statement-breakpoint
ALTER TABLE "thermostats" ADD COLUMN "unit_sort_key" text GENERATED ALWAYS AS (natural_sort_key(case when unit_label = '' then thermostat_id else unit_label end)) STORED;
