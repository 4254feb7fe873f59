import 'server-only';
import { ACTIVITY_ACTIONS } from '@/lib/activity/actions';
import { summaryInWords } from '@/lib/activity-log/words';
import { listBulkRunsById, listRunBuildingsInView, type RunInView } from '@/lib/runs/store';
import { type ActivityEntry, listActivity } from '@/lib/activity/store';
import { listBuildings } from '@/lib/portfolio/store';
import { connectionEndChangesInWords } from '@/lib/service/connection/ended';
import { describeSettingsChanges } from '@/lib/settings/configuration';
import { runEntry } from '@/lib/runs/entry';
import type { SettingsChanges } from '@/lib/service/resources';
import type { TemperatureUnit } from '@/lib/platform/units';

/**
 * The activity log as a member may read it, for the page and its CSV export alike. A bulk or
 * planned run is one entry, written when it finished with the whole run's counts. A building
 * manager who sees only part of someone else's run (`partView`, lib/runs/store/runs.ts) reads that
 * entry described anew from their share: its words, details, buildings, outcome and error, never
 * the stored whole-run ones. Everyone else, and whoever started the run, reads it as stored.
 * A "connection ended" entry reads its reason in words (lib/service/connection/ended.ts), never the service's
 * error text an older entry kept. A configuration entry's summary, stored in °F, reads in the
 * reader's unit (`unit`). A move's buildings read by name, not by the service's ids it recorded.
 * A summary an older writer put a code in reads in words (`summaryInWords`).
 */
export async function listActivityAsSeen(
  input: Parameters<typeof listActivity>[0] & { unit: TemperatureUnit },
): Promise<{ entries: ActivityEntry[]; runs: Map<string, RunInView> }> {
  const { unit, ...query } = input;
  const seen = await listActivityInScope(query);
  const entries = await movesByName(seen.entries, query.scope);
  return {
    ...seen,
    entries: entries.map((entry) => summaryIn({ ...entry, summary: summaryInWords(entry) }, unit)),
  };
}

/**
 * A move records the two buildings' service ids (`buildingId: { from, to }`); the reader sees
 * their names as they are now. A building the reader does not look after is "another building",
 * so that a building manager learns no name outside their scope; one removed from the portfolio
 * since is said to be.
 */
async function movesByName(
  entries: ActivityEntry[],
  scope: Parameters<typeof listActivity>[0]['scope'],
): Promise<ActivityEntry[]> {
  if (!entries.some((entry) => entry.action === 'thermostat.move')) return entries;
  const names = new Map((await listBuildings({ scope })).map((b) => [b.buildingId, b.name]));
  const gone = scope.buildingIds === null ? 'a building since removed' : 'another building';
  const nameOf = (id: unknown) => (typeof id === 'string' && names.get(id)) || gone;
  return entries.map((entry) => {
    const moved = (entry.changes as Record<string, unknown>).buildingId;
    if (entry.action !== 'thermostat.move' || !moved || typeof moved !== 'object') return entry;
    const { buildingId: _ids, ...rest } = entry.changes as Record<string, unknown>;
    const { from, to } = moved as { from?: unknown; to?: unknown };
    return { ...entry, changes: { ...rest, building: { from: nameOf(from), to: nameOf(to) } } };
  });
}

async function listActivityInScope(
  input: Parameters<typeof listActivity>[0],
): Promise<{ entries: ActivityEntry[]; runs: Map<string, RunInView> }> {
  const rows = (await listActivity(input)).map(
    (entry): ActivityEntry =>
      entry.action === 'connection.end'
        ? { ...entry, changes: connectionEndChangesInWords(entry.changes) }
        : entry,
  );
  const runIds = [...new Set(rows.flatMap((entry) => entry.runId ?? []))];
  const runs = new Map(
    (await listBulkRunsById({ scope: input.scope, runIds })).map((run) => [run.id, run]),
  );
  // Only a building manager's scope can see part of a run (or miss one it was shown).
  if (input.scope.buildingIds === null) return { entries: rows, runs };
  const part = [...runs.values()].filter((run) => run.partView);
  const buildingsOf = await listRunBuildingsInView({ scope: input.scope, runs: part });
  const entries = rows.map((entry): ActivityEntry => {
    if (!entry.runId) return entry;
    const run = runs.get(entry.runId);
    if (run && !run.partView) return entry;
    if (!run) {
      // Not a run this scope sees (it cannot be listed otherwise): nothing of its counts.
      return { ...entry, summary: ACTIVITY_ACTIONS[entry.action], changes: {}, error: null };
    }
    const { action: _action, ...seen } = runEntry(run, buildingsOf.get(run.id) ?? []);
    return { ...entry, ...seen };
  });
  return { entries, runs };
}

/**
 * The settings a configuration entry changed, from what it recorded: a thermostat's change keeps
 * each setting as `{ from, to }`, a bulk run's entry the settings it sent.
 */
function settingsOf(entry: ActivityEntry): SettingsChanges | null {
  const changes = entry.changes as Record<string, unknown>;
  if (entry.action === 'configuration.bulk_update') {
    const settings = changes.settings;
    return settings && typeof settings === 'object' ? (settings as SettingsChanges) : null;
  }
  if (entry.action !== 'configuration.update') return null;
  const to = (key: keyof SettingsChanges) => {
    const change = changes[key] as { to?: unknown } | undefined;
    return change && typeof change === 'object' && 'to' in change ? { [key]: change.to } : {};
  };
  return { ...to('heatRange'), ...to('coolRange'), ...to('holdAction'), ...to('fanMinimumOnTime') };
}

/**
 * A configuration entry's summary in the reader's unit: the words it stored (°F) worded again,
 * where the summary holds them as written; any other entry, or one that does not, as stored.
 */
function summaryIn(entry: ActivityEntry, unit: TemperatureUnit): ActivityEntry {
  const settings = unit === 'F' ? null : settingsOf(entry);
  if (!settings) return entry;
  try {
    const stored = describeSettingsChanges(settings).join(', ');
    if (stored === '' || !entry.summary.includes(stored)) return entry;
    const read = describeSettingsChanges(settings, unit).join(', ');
    return { ...entry, summary: entry.summary.replace(stored, read) };
  } catch {
    // Not the shape it should have (an entry written by hand): as stored.
    return entry;
  }
}
