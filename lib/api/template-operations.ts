import 'server-only';
import type { Refusal, RunActor } from '@/lib/runs/requests';
import { runIdSchema } from '@/lib/runs/progress';
import { applyPlannedRun, planTemplateRun } from '@/lib/templates/runs';
import { findUnit } from '@/lib/units/store';
import { type ApiAnswer, type ApiCall, ApiProblem, invalidInput, notFound } from './http';
import { type ApiKey, scopeOfKey } from './keys';
import { templateRunRequestSchema } from './schemas';

/**
 * Template runs through the API, as on the pages: planned first (the run reads each thermostat
 * and plans it; `GET /api/v1/runs/{id}` then shows what applying changes and costs), applied only
 * by a second call naming the plan (`POST /api/v1/runs/{id}/apply`). A key with
 * `write_thermostats` acts with an admin's rights in its buildings (lib/runs/requests.ts
 * `RunActor`); every check of the pages is made again here.
 */

/** The key as the runs' checks see it: an admin of its buildings, starting runs as no member. */
const actorOf = (key: ApiKey): RunActor => ({
  ...scopeOfKey(key),
  name: `API key “${key.name}”`,
  role: 'admin',
  temperatureUnit: 'F',
  keyId: key.id,
});

/** A refusal of the runs' checks as a problem: what the key may not see is not there. */
function problemOf(refusal: Refusal, conflict: boolean): ApiProblem {
  if (refusal.code === 'forbidden') return new ApiProblem(404, 'Not found', refusal.message);
  return conflict
    ? new ApiProblem(409, 'Conflict', refusal.message)
    : new ApiProblem(422, 'Invalid request', refusal.message);
}

/** Plans a template on thermostats, or on units (their thermostats): 202 with the run. */
export async function planTemplateRunOperation(call: ApiCall<object>): Promise<ApiAnswer> {
  const parsed = templateRunRequestSchema.safeParse(call.body);
  if (!parsed.success) throw invalidInput(parsed.error);
  const { templateId, unitIds } = parsed.data;
  let thermostatIds = parsed.data.thermostatIds ?? [];
  if (unitIds) {
    const scope = scopeOfKey(call.key);
    const units = await Promise.all(unitIds.map((unitId) => findUnit({ scope, unitId })));
    if (units.some((unit) => unit === null)) throw notFound('unit');
    const empty = units.filter((unit) => unit?.thermostatId === null);
    if (empty.length > 0) {
      throw new ApiProblem(422, 'Invalid request', 'Some units have no thermostat.', [
        {
          field: 'unitIds',
          message: `No thermostat in ${empty.map((unit) => unit?.label).join(', ')}.`,
        },
      ]);
    }
    thermostatIds = units.map((unit) => unit?.thermostatId as string);
  }
  const planned = await planTemplateRun({ member: actorOf(call.key), templateId, thermostatIds });
  if (!planned.ok) throw problemOf(planned, false);
  return { status: 202, body: { run: { id: planned.run.id, state: planned.run.state } } };
}

/** Applies a plan the key was shown (its own, or any in its reach for a key of every building). */
export async function applyRunOperation(call: ApiCall<{ runId: string }>): Promise<ApiAnswer> {
  const id = runIdSchema.safeParse(call.params.runId);
  if (!id.success) throw notFound('run');
  const applied = await applyPlannedRun({ member: actorOf(call.key), runId: id.data });
  if (!applied.ok) throw problemOf(applied, true);
  return { status: 202, body: { run: { id: applied.run.id, state: 'queued' } } };
}
