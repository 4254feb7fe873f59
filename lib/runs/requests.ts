import 'server-only';
import { z } from 'zod';
import { notYours } from '@/lib/access/not-yours';
import { can, refusal } from '@/lib/auth/permissions';
import type { Member } from '@/lib/auth/store';
import { listThermostats } from '@/lib/portfolio/store';
import type { ConfigurationErrors } from '@/lib/settings/configuration';
import { thermostatIdSchema } from '@/lib/service/schemas';
import { CANCELLED_BEFORE_SENT, CANCELLED_IN_FLIGHT, type RunKinds } from './engine';
import { runEntry } from './entry';
import { forgetPasscode } from './passcodes';
import { BULK_RUNS_PATH, TEMPLATE_RUNS_PATH } from './paths';
import { MAX_PER_RUN } from './steps';
import { type BulkRun, findBulkRun, requestBulkRunCancel } from './store';
import { isOneOff, thermostatCount } from './words';

/**
 * What a member asks of runs of any kind, each checked here before anything is written: the
 * thermostats a new run would change (the member's role, each one in their scope and theirs to
 * change), where a run's page is, and cancelling a run (whoever started it, or a member who may
 * change every building).
 */

export const selectionSchema = z
  .array(thermostatIdSchema)
  .min(1, 'Select at least one thermostat.')
  .max(MAX_PER_RUN, `Select at most ${MAX_PER_RUN} thermostats per run.`)
  .refine((ids) => new Set(ids).size === ids.length, 'Each thermostat once.');

export type Target = { thermostatId: string; buildingId: string; unitLabel: string };

/**
 * Who asks of runs: a member, or an API key acting with an admin's rights in its buildings
 * (lib/api/template-operations.ts), named by `keyId`. A key is no user: its runs have no
 * `startedBy`, and its `userId` is nobody's.
 */
export type RunActor = Pick<
  Member,
  'orgId' | 'userId' | 'name' | 'role' | 'buildingIds' | 'temperatureUnit'
> & { keyId?: string };

/** Who a run started by this actor names as its starter (a key: no user). */
export const startedByOf = (actor: RunActor): string | null => (actor.keyId ? null : actor.userId);

/** Why nothing was started: the member may not (`forbidden`), or the input is wrong (`invalid`). */
export type Refusal = {
  ok: false;
  code: 'forbidden' | 'invalid';
  message: string;
  fieldErrors?: ConfigurationErrors;
};

export type WithRun = { ok: true; run: BulkRun };
export type WithMessage = { ok: true; message: string; run: BulkRun };

/**
 * The section a run belongs to: a template's own run (planned from the template) is the
 * template's; a configuration change, a one-off change and an undo are bulk changes.
 */
export function runSection(run: Pick<BulkRun, 'kind' | 'changes'>): 'templates' | 'bulk' {
  return run.kind === 'template' && !isOneOff(run) ? 'templates' : 'bulk';
}

/** A run's page, in its section (lib/runs/paths.ts). */
export function runPath(run: Pick<BulkRun, 'id' | 'kind' | 'changes'>): string {
  const base = runSection(run) === 'templates' ? TEMPLATE_RUNS_PATH : BULK_RUNS_PATH;
  return `${base}/${encodeURIComponent(run.id)}`;
}

export const forbidden = (message: string): Refusal => ({ ok: false, code: 'forbidden', message });
export const invalid = (message: string, fieldErrors?: ConfigurationErrors): Refusal => ({
  ok: false,
  code: 'invalid',
  message,
  ...(fieldErrors ? { fieldErrors } : {}),
});

/**
 * The selected thermostats as the member may change them, in selection order; or why not (and
 * then nothing is sent). One query for the whole selection.
 */
export async function checkTargets(
  member: RunActor,
  thermostatIds: unknown,
): Promise<{ ok: true; targets: Target[] } | Refusal> {
  if (!can(member, 'change_thermostat')) {
    return forbidden(refusal(member.role, 'change_thermostat'));
  }
  const parsed = selectionSchema.safeParse(thermostatIds);
  if (!parsed.success) return invalid(parsed.error.issues[0]?.message ?? 'Malformed selection.');
  const ids = parsed.data;
  const owned = new Map(
    (await listThermostats({ scope: member, thermostatIds: ids })).map((t) => [t.thermostatId, t]),
  );
  const foreign = ids.filter((id) => !owned.has(id));
  if (foreign.length > 0) {
    return forbidden(
      `${foreign.length} selected thermostat${foreign.length === 1 ? ' is' : 's are'} not in your portfolio${member.buildingIds === null ? '' : ' (your buildings)'}; nothing was sent.`,
    );
  }
  const targets = ids.map((id) => owned.get(id)).filter((t) => t !== undefined);
  const refused = targets.find((t) => !can(member, 'change_thermostat', t));
  if (refused) return forbidden(refusal(member.role, 'change_thermostat'));
  return {
    ok: true,
    targets: targets.map((t) => ({
      thermostatId: t.thermostatId,
      buildingId: t.buildingId,
      unitLabel: t.unitLabel,
    })),
  };
}

/** A member's request about one run, by its id (from the address, so not yet checked). */
export type RunRequest = { member: RunActor; runId: string };

/** The run if the member sees it; otherwise the one answer, whether it exists or not. */
export async function findRunFor(input: RunRequest): Promise<WithRun | Refusal> {
  const run = await findBulkRun({ scope: input.member, runId: input.runId });
  return run ? { ok: true, run } : forbidden(notYours('run'));
}

/**
 * Who may stop (or apply) a run: whoever started it (a key: that key), or a member or key who may
 * change every building.
 */
export function mayCancel(
  member: RunActor,
  run: Pick<BulkRun, 'startedBy' | 'startedByKey'>,
): boolean {
  if (!can(member, 'change_thermostat')) return false;
  const started = member.keyId
    ? run.startedByKey === member.keyId
    : run.startedBy !== null && run.startedBy === member.userId;
  return started || member.buildingIds === null;
}

/**
 * Cancels a run: at once when it is queued or no worker holds it; otherwise its worker stops
 * between requests (those in flight finish and are recorded) and the rest is cancelled. A run
 * cancelled at once is ended here as its worker would have ended it, with its kind's `finished`
 * (the registry, lib/jobs/run-kinds.ts, is passed in: the engine never imports its kinds).
 */
export async function cancelBulkRun(
  input: RunRequest,
  kinds: RunKinds,
): Promise<WithMessage | Refusal> {
  const found = await findRunFor(input);
  if (!found.ok) return found;
  const { run } = found;
  if (!mayCancel(input.member, run)) {
    return forbidden('Only whoever started this run, an owner or an admin can cancel it.');
  }
  const answer = await requestBulkRunCancel({
    orgId: input.member.orgId,
    runId: run.id,
    byName: input.member.name,
    finish: {
      rest: {
        outcome: 'cancelled',
        detail: CANCELLED_BEFORE_SENT,
        inFlightDetail: CANCELLED_IN_FLIGHT,
      },
      // Each kind of run is described as its own (lib/runs/entry.ts).
      describe: runEntry,
    },
  });
  switch (answer) {
    case 'missing':
      return forbidden(notYours('run'));
    case 'finished':
      return invalid('The run had already finished; nothing was cancelled.');
    case 'cancelled':
      // Ended with no worker holding it: no worker will forget its passcode or finish it (a
      // template run partly applied before its worker stopped assigns the template where it
      // applied, so drift is tracked there).
      forgetPasscode(run.id);
      await kinds[run.kind].finished?.(run);
      return { ok: true, message: 'Cancelled. Nothing more will be sent.', run };
    case 'requested':
      return {
        ok: true,
        run,
        message: `Cancelling: the requests in flight finish and are recorded; the rest of the ${thermostatCount(run.total)} are not sent.`,
      };
  }
}
