import 'server-only';
import { ACTIVITY_ACTIONS } from '@/lib/activity-actions';
import { listBulkRunsById, listRunBuildingsInView, type RunInView } from '@/lib/db/bulk-runs';
import { type ActivityEntry, listActivity } from '@/lib/db/queries';
import { connectionEndChangesInWords } from '@/lib/oauth/ended';
import { runEntryOf } from '@/lib/templates/run-words';

/**
 * The activity log as a member may read it, for the page and its CSV export alike. A bulk or
 * planned run is one entry, written when it finished with the whole run's counts. A building
 * manager who sees only part of someone else's run (`partView`, lib/db/bulk-runs.ts) reads that
 * entry described anew from their share: its words, details, buildings, outcome and error, never
 * the stored whole-run ones. Everyone else, and whoever started the run, reads it as stored.
 * A "connection ended" entry reads its reason in words (lib/oauth/ended.ts), never the service's
 * error text an older entry kept.
 */
export async function listActivityAsSeen(
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
    const { action: _action, ...seen } = runEntryOf(run, buildingsOf.get(run.id) ?? []);
    return { ...entry, ...seen };
  });
  return { entries, runs };
}
