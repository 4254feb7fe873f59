import { stringify } from 'csv-stringify/sync';
import { type NextRequest, NextResponse } from 'next/server';
import { ACTIVITY_ACTIONS } from '@/lib/activity/actions';
import { readActivityQuery } from '@/lib/activity-log/query';
import { listActivityAsSeen } from '@/lib/activity-log/view';
import { changeLines, errorWords } from '@/lib/activity-log/words';
import { getCurrentMember } from '@/lib/auth/session';
import type { ActivityEntry } from '@/lib/activity/store';
import { listBuildings, listThermostats } from '@/lib/portfolio/store';
import { activityOutcome } from '@/lib/outcomes';
import { isoIn, todayIn } from '@/lib/platform/time-format';
import { withoutUndo } from '@/lib/templates/undo/entries';

/** At most this many entries per export; the file says when there were more. */
const MAX_ROWS = 10_000;
const PAGE = 1_000;

/**
 * The activity log's filtered view as CSV, in the member's scope: the same filters as the page
 * (from the address, dates in the member's zone), every matching entry up to 10,000, newest
 * first, its times in the member's zone with their offset. A spreadsheet would run a
 * cell that starts with =, +, - or @ as a formula; such cells are prefixed with a quote.
 */
export async function GET(request: NextRequest) {
  const member = await getCurrentMember();
  if (!member) return new NextResponse('Sign in to export the activity log.', { status: 401 });
  const params = Object.fromEntries(request.nextUrl.searchParams);
  const query = await readActivityQuery(member, params);

  const entries: ActivityEntry[] = [];
  let before = query.before;
  while (entries.length < MAX_ROWS) {
    // A building manager's share of someone else's run reads as that share, not the whole run.
    const { entries: page } = await listActivityAsSeen({
      scope: member,
      unit: member.temperatureUnit,
      filter: query.filter,
      before,
      limit: PAGE,
    });
    entries.push(...page);
    const last = page.at(-1);
    if (page.length < PAGE || !last) break;
    before = { at: last.at, id: last.id };
  }
  const [buildings, thermostats] = await Promise.all([
    listBuildings({ scope: member }),
    listThermostats({
      scope: member,
      thermostatIds: [...new Set(entries.flatMap((entry) => entry.thermostatId ?? []))],
    }),
  ]);
  const buildingName = new Map(buildings.map((b) => [b.buildingId, b.name]));
  const label = new Map(thermostats.map((t) => [t.thermostatId, t.unitLabel]));

  const rows = entries.slice(0, MAX_ROWS).map((entry) => {
    // The state kept for an undo is Setpoint's (whole weeks of names), not a change to read.
    const details = withoutUndo(entry.changes);
    return [
      isoIn(entry.at, member.timeZone),
      entry.actorName,
      ACTIVITY_ACTIONS[entry.action] ?? entry.action,
      entry.summary,
      entry.thermostatId ?? '',
      entry.thermostatId ? (label.get(entry.thermostatId) ?? '') : '',
      entry.buildingId ? (buildingName.get(entry.buildingId) ?? entry.buildingId) : '',
      activityOutcome(entry.outcome),
      errorWords(entry),
      // In words and the reader's unit, as the page reads them; then as recorded, for tools.
      changeLines(details, member.temperatureUnit)
        .map(([field, value]) => `${field}: ${value}`)
        .join('; '),
      Object.keys(details).length ? JSON.stringify(details) : '',
    ];
  });
  const header = [
    `time (${member.timeZone})`,
    'who',
    'what',
    'summary',
    'thermostat id',
    'thermostat',
    'building',
    'outcome',
    'error',
    'details',
    'recorded (JSON)',
  ];
  const more =
    entries.length >= MAX_ROWS
      ? [[`Only the newest ${MAX_ROWS} entries; narrow the filters.`]]
      : [];
  const csv = stringify([header, ...rows.map((row) => row.map(neutralize)), ...more]);
  const day = todayIn(member.timeZone);
  return new NextResponse(`\uFEFF${csv}`, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="setpoint-activity-${day}.csv"`,
      'cache-control': 'no-store',
    },
  });
}

function neutralize(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}
