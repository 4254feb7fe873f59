import { query } from './scale-out';

/**
 * What the application's tables hold, as one md5 per table over its rows in a fixed order, so a
 * step can prove that it wrote nothing: the checksums before and after are equal. Columns named
 * in `ignoreColumns` (in any table) and tables in `ignoreTables` are left out, for steps that
 * sign someone in (sessions, sign-in attempts, last sign-in times).
 */
export async function tableChecksums(
  url: string,
  options: { ignoreTables?: string[]; ignoreColumns?: string[] } = {},
): Promise<Record<string, string>> {
  const tables = (
    await query<{ name: string }>(
      url,
      "select tablename as name from pg_tables where schemaname = 'public' order by tablename",
    )
  )
    .map((row) => row.name)
    .filter((name) => !options.ignoreTables?.includes(name));
  if (tables.length === 0) throw new Error('no application tables: was the database migrated?');
  const dropped = (options.ignoreColumns ?? []).map((column) => ` - '${column}'`).join('');
  const row = `(to_jsonb(t)${dropped})::text`;
  const rows = await query<{ name: string; sum: string }>(
    url,
    tables
      .map(
        (name) =>
          `select '${name}' as name, md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) || ':' || count(*) as sum from public."${name}" t`,
      )
      .join(' union all '),
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.sum]));
}
