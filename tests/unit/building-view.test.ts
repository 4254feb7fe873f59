import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { buildingRowsSql, filterSql, orderSql } from '@/lib/readings/building-rows-store';
import type { BuildingRowRecord } from '@/lib/readings/store';
import { buildingRowsCsv, neutralizeCell } from '@/lib/readings/csv';
import { isServiceWide, watchReads } from '@/lib/readings/outage';
import {
  DEFAULT_VIEW,
  isCanonical,
  isFiltered,
  pageOf,
  parseBuildingView,
  viewQuery,
} from '@/lib/readings/view';
import { ageWords } from '@/lib/readings/words';
import { problemWords } from '@/lib/service/errors';

const dialect = new PgDialect();
const render = (query: Parameters<PgDialect['sqlToQuery']>[0]) => dialect.sqlToQuery(query);

describe('the building view in the address', () => {
  it('reads every setting, and falls back to the default for what does not parse', () => {
    expect(parseBuildingView({})).toEqual({
      q: '',
      sort: 'unit',
      dir: 'asc',
      page: 1,
      per: 250,
    });
    expect(
      parseBuildingView({
        q: '  Unit 10 ',
        mode: 'heat',
        connection: 'offline',
        resident: 'on',
        sort: 'temperature',
        dir: 'desc',
        page: '3',
        per: '50',
      }),
    ).toEqual({
      q: 'Unit 10',
      mode: 'heat',
      connection: 'offline',
      resident: 'on',
      sort: 'temperature',
      dir: 'desc',
      page: 3,
      per: 50,
    });
    expect(
      parseBuildingView({
        q: 'x'.repeat(65),
        mode: 'sideways',
        connection: '',
        sort: 'drop table',
        dir: 'up',
        page: '-1',
        per: '49',
      }),
    ).toEqual(DEFAULT_VIEW);
    // Repeated parameters: the first counts.
    expect(parseBuildingView({ sort: ['humidity', 'mode'] }).sort).toBe('humidity');
  });

  it('writes the shortest address for a view, back on the first page after any change but the page', () => {
    expect(viewQuery(DEFAULT_VIEW)).toBe('');
    const view = parseBuildingView({
      q: 'Unit 1',
      sort: 'cool',
      dir: 'desc',
      page: '2',
      per: '50',
    });
    expect(viewQuery(view, { page: 2 })).toBe('?q=Unit+1&sort=cool&dir=desc&per=50&page=2');
    expect(viewQuery(view, { sort: 'unit', dir: 'asc' })).toBe('?q=Unit+1&per=50');
    expect(viewQuery(view, { page: 3 })).toMatch(/page=3$/);
    // Every address a view writes reads back as that view.
    expect(
      parseBuildingView(Object.fromEntries(new URLSearchParams(viewQuery(view, { page: 2 })))),
    ).toEqual(view);
  });

  it('tells a canonical address from one to redirect (empty fields, defaults, unknown names)', () => {
    const view = parseBuildingView({ q: 'a', mode: 'cool' });
    expect(isCanonical({ mode: 'cool', q: 'a' }, view)).toBe(true);
    expect(isCanonical({ q: 'a', mode: 'cool', connection: '' }, view)).toBe(false);
    expect(isCanonical({ q: 'a', mode: 'cool', per: '250' }, view)).toBe(false);
    expect(isCanonical({ q: 'a', mode: 'cool', utm: 'x' }, view)).toBe(false);
    expect(isCanonical({}, DEFAULT_VIEW)).toBe(true);
    expect(isFiltered(view)).toBe(true);
    expect(isFiltered(parseBuildingView({ sort: 'mode' }))).toBe(false);
  });

  it('pages: at least one page, and an old link beyond the last shows the last', () => {
    const view = parseBuildingView({ per: '50', page: '9' });
    expect(pageOf(view, 200)).toEqual({ page: 4, pages: 4 });
    expect(pageOf(view, 201)).toEqual({ page: 5, pages: 5 });
    expect(pageOf(parseBuildingView({}), 0)).toEqual({ page: 1, pages: 1 });
  });
});

describe('the building rows query builder', () => {
  const scope = { orgId: '00000000-0000-4000-8000-000000000000', userId: 'u', buildingIds: null };

  it('has no condition for the plain view, and one bound parameter per search or filter', () => {
    expect(filterSql(DEFAULT_VIEW)).toBeNull();
    const filter = filterSql(
      parseBuildingView({ q: '50%_off', mode: 'heat', connection: 'offline', resident: 'off' }),
    );
    if (!filter) throw new Error('expected a filter');
    const { sql, params } = render(filter);
    // The search is a parameter with LIKE's wildcards escaped, never SQL text.
    expect(params).toEqual(['%50\\%\\_off%', '%50\\%\\_off%', 'heat']);
    expect(sql).toContain('t.unit_label ilike $1');
    expect(sql).toContain("r.status->'connected'");
    expect(sql).toContain('is false');
    expect(sql).toContain("r.status->'isResidentMode'");
    expect(
      render(filterSql(parseBuildingView({ connection: 'unread' })) ?? orderSql(DEFAULT_VIEW)).sql,
    ).toBe('(r.status is null or r.failure is not null)');
  });

  it('orders units naturally, and readings with failed and missing ones last in both directions', () => {
    expect(render(orderSql(DEFAULT_VIEW)).sql).toBe(
      't.unit_sort_key collate "C" asc, t.thermostat_id asc',
    );
    expect(render(orderSql(parseBuildingView({ dir: 'desc' }))).sql).toBe(
      't.unit_sort_key collate "C" desc, t.thermostat_id desc',
    );
    const temperature = render(
      orderSql(parseBuildingView({ sort: 'temperature', dir: 'desc' })),
    ).sql;
    expect(temperature).toMatch(
      /^\(r\.failure is not null\), .*'temperature'.* desc nulls last, t\.unit_sort_key collate "C" asc/,
    );
    // The age of a reading is its own order: a failed read is not put last.
    expect(render(orderSql(parseBuildingView({ sort: 'read' }))).sql).toBe(
      'r.read_at asc nulls last, t.unit_sort_key collate "C" asc, t.thermostat_id asc',
    );
  });

  it('keeps a building manager to their buildings, and pages with parameters', () => {
    const manager = { ...scope, buildingIds: ['b1', 'b2'] };
    const { sql, params } = render(
      buildingRowsSql({
        scope: manager,
        buildingId: 'b1',
        view: parseBuildingView({ per: '50', page: '2' }),
        limit: 50,
        offset: 50,
        freshSince: new Date('2026-01-01T00:00:00Z'),
      }),
    );
    expect(sql).toContain('t.building_id in ($4, $5)');
    expect(sql).toMatch(/limit \$6 offset \$7$/);
    expect(params).toEqual(['2026-01-01T00:00:00.000Z', scope.orgId, 'b1', 'b1', 'b2', 50, 50]);
    const none = render(
      buildingRowsSql({
        scope: { ...scope, buildingIds: [] },
        buildingId: 'b1',
        view: DEFAULT_VIEW,
        limit: null,
        offset: 0,
        freshSince: new Date(0),
      }),
    );
    expect(none.sql).toContain('and false');
    expect(none.sql).not.toContain('limit');
  });
});

describe('an outage told from a few failing thermostats', () => {
  it('is service-wide when more than half failed, and at least three (or all of fewer)', () => {
    expect(isServiceWide(0, 0)).toBe(false);
    expect(isServiceWide(1, 1)).toBe(true);
    expect(isServiceWide(2, 2)).toBe(true);
    expect(isServiceWide(2, 3)).toBe(false);
    expect(isServiceWide(3, 5)).toBe(true);
    expect(isServiceWide(1, 10)).toBe(false);
    expect(isServiceWide(5, 10)).toBe(false);
    expect(isServiceWide(6, 10)).toBe(true);
  });

  type Result = { problem: 'unavailable' | 'not_found' | null };
  const later = <T>(value: T, ms: number) =>
    new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

  it('answers as soon as it is certain, either way', async () => {
    const failed: Result = { problem: 'unavailable' };
    const read: Result = { problem: null };
    // Six of ten failed quickly; the rest would take long: the verdict does not wait for them.
    const started = Date.now();
    const outage = await watchReads(
      [
        ...Array.from({ length: 6 }, () => later(failed, 5)),
        ...Array.from({ length: 4 }, () => later(read, 5_000)),
      ],
      (result: Result) => result.problem,
    );
    expect(outage).toEqual({ serviceWide: 'unavailable' });
    expect(Date.now() - started).toBeLessThan(1_000);
    // Five of ten read: whatever the rest do, it is not an outage.
    const fine = await watchReads(
      [
        ...Array.from({ length: 5 }, () => later(read, 5)),
        ...Array.from({ length: 5 }, () => later(failed, 5_000)),
      ],
      (result: Result) => result.problem,
    );
    expect(fine).toEqual({ serviceWide: null });
    // A thermostat the service does not know is its own problem, however many.
    expect(
      await watchReads([later({ problem: 'not_found' } as Result, 1)], (r: Result) => r.problem),
    ).toEqual({ serviceWide: null });
    expect(await watchReads([], (r: Result) => r.problem)).toEqual({ serviceWide: null });
  });
});

describe('words of a row', () => {
  it('says an age in the fewest words', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    const ago = (seconds: number) => ageWords(new Date(now - seconds * 1000), now);
    expect(ago(-5)).toBe('just now');
    expect(ago(59)).toBe('just now');
    expect(ago(60)).toBe('1 min ago');
    expect(ago(3599)).toBe('59 min ago');
    expect(ago(3600)).toBe('1 h ago');
    expect(ago(47 * 3600 + 3599)).toBe('47 h ago');
    expect(ago(9 * 86_400)).toBe('9 d ago');
    expect(problemWords('unavailable')).toBe('not responding');
    expect(problemWords('something new')).toBe('could not be read');
  });
});

describe('the CSV of a building', () => {
  it('neutralises text a spreadsheet would run as a formula, and keeps numbers numbers', () => {
    expect(neutralizeCell('=HYPERLINK("x")')).toBe('\'=HYPERLINK("x")');
    expect(neutralizeCell('+1')).toBe("'+1");
    expect(neutralizeCell('-2')).toBe("'-2");
    expect(neutralizeCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(neutralizeCell('\t=1')).toBe("'\t=1");
    expect(neutralizeCell('Unit 1')).toBe('Unit 1');
    expect(neutralizeCell(-2.5)).toBe(-2.5);
    expect(neutralizeCell(null)).toBe('');
  });

  it('writes each row as shown, in the member’s unit, with when it was read and its age', () => {
    const row: BuildingRowRecord = {
      thermostatId: '100000000001',
      unitLabel: '=Unit 1',
      readAt: new Date('2026-11-23T11:30:00Z'),
      failure: 'unavailable',
      stale: true,
      temperature: 23,
      humidity: 41,
      hvacMode: 'heat',
      pendingMode: null,
      desiredHeat: 68,
      desiredCool: 76,
      isResidentMode: true,
      connected: false,
      offlineSince: new Date('2026-11-23T11:00:00Z'),
      offlineSeen: true,
      comfortSetting: 'Home',
    };
    const never: BuildingRowRecord = {
      ...row,
      thermostatId: '100000000002',
      unitLabel: 'Unit 2',
      readAt: null,
      failure: null,
    };
    // Modes and a failed read in words, as the table says them; never the service's codes.
    const aux: BuildingRowRecord = {
      ...row,
      thermostatId: '100000000003',
      unitLabel: 'Unit 3',
      hvacMode: 'auxHeatOnly',
      pendingMode: 'cool',
      failure: 'rate_limited',
    };
    const csv = buildingRowsCsv({
      rows: [row, never, aux],
      unit: 'C',
      timeZone: 'America/Chicago',
      now: new Date('2026-11-23T12:00:00Z'),
    });
    const [header, first, second, third] = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(header).toContain('temperature (°C)');
    // The status names the comfort setting in force (the service gives its name).
    expect(header?.split(',')).toContain('comfort setting');
    // Times in the building's zone, named in the header, with their offset in each cell.
    expect(header?.split(',')).toContain('offline since (America/Chicago)');
    expect(first).toBe(
      "'=Unit 1,100000000001,-5,41,Heat,,20,24.4,on,offline,2026-11-23T05:00:00.000-06:00,Home,2026-11-23T05:30:00.000-06:00,30,not responding",
    );
    expect(third).toBe(
      'Unit 3,100000000003,-5,41,Auxiliary heat only,Cool,20,24.4,on,offline,2026-11-23T05:00:00.000-06:00,Home,2026-11-23T05:30:00.000-06:00,30,service busy',
    );
    expect(csv).not.toMatch(/auxHeatOnly|rate_limited|unavailable/);
    expect(second).toBe('Unit 2,100000000002,,,,,,,,,,,,,');
  });
});
