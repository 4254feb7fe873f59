import 'server-only';
import pLimit from 'p-limit';
import type { DriftWords } from './drift-words';
import {
  type DueDriftCheck,
  listDueDriftChecks,
  saveDriftCheck,
  saveDriftFailure,
} from '@/lib/templates/drift-store';
import { findTemplate, type StoredTemplate } from '@/lib/templates/store';
import { getEnv } from '@/lib/platform/env';
import { logWarning } from '@/lib/platform/log';
import { freshnessTargetMs } from '@/lib/readings/read';
import { budgetWindows } from '@/lib/service/budget';
import { ServiceError } from '@/lib/service/errors';
import type { TemperatureUnit } from '@/lib/platform/units';
import { planTemplate, readsFor, sectionLines, type ThermostatPlan } from './plan';
import type { Template } from './schema';
import { serviceForTemplates, type TemplateService } from './service';
import { problemsIn } from './words';

/**
 * Drift: a thermostat a template run applied to (or found matching) is read again on a slow
 * cycle and planned against its template; what would change is what differs, kept in words in
 * each unit for the needs-attention page, with when it was first found. Reads are at background
 * priority, a few a minute, like the maintenance reminders (lib/attention/maintenance.ts): a
 * template's full read is 5 calls, so 1,500 assigned thermostats every 6 hours cost about 1,250
 * calls an hour at most, and the cap below holds it to 5 % of the hourly background budget (about
 * 465) however many are due. The oldest check goes first, so a large portfolio is checked in
 * turn, less often than 6 hours. Planning in both units costs CPU only, never a call.
 *
 * Access control has no read at the service: Setpoint knows only the locks it set itself, not
 * what the thermostat has now. So it is left out of the check.
 */

/** Each assignment is checked at most this often. */
export const CHECK_EVERY_MS = 6 * 60 * 60_000;
/** The most of the hourly background budget these reads may take. */
const SHARE_OF_HOUR = 0.05;
/** A template's full read: status, comfort settings, schedule, settings, alert settings. */
const MOST_READS = 5;
/** Lines kept of one section that differs (a reworked schedule can differ in dozens of ranges). */
const LINES_PER_SECTION = 3;

/** How many service calls one minute's round may spend (at least one whole template's read). */
export function driftCallsPerMinute(): number {
  const hourCap = budgetWindows(getEnv().SERVICE_RATE_LIMIT, 'background')[2]?.cap ?? 0;
  return Math.max(MOST_READS, Math.floor((hourCap * SHARE_OF_HOUR) / 60));
}

/** The template as drift checks it: without access control, which the service cannot read. */
export function checkedPart(template: Template): Template {
  return { ...template, accessControl: undefined };
}

/**
 * What differs, in words in the reader's unit, from a plan of the template on the thermostat as
 * it is now (`before` is the thermostat, `after` the template), or null when nothing does. A few
 * lines per section, then how many more; then any reason the template could not be applied as
 * it is.
 */
export function driftLines(plan: ThermostatPlan, unit: TemperatureUnit): string[] | null {
  const lines = plan.diff.flatMap((section) => {
    const all = sectionLines(section, unit);
    const shown = all
      .slice(0, LINES_PER_SECTION)
      .map((line) =>
        line.field
          ? `${section.title}: ${line.field} ${line.before} → ${line.after}`
          : `${section.title}: ${line.before} → ${line.after}`,
      );
    const more = all.length - shown.length;
    if (more > 0) shown.push(`${section.title}: ${more} more`);
    return shown.length > 0 ? shown : [`${section.title}: ${section.summary}`];
  });
  for (const problem of problemsIn(plan, unit))
    lines.push(`Cannot be applied as it is: ${problem}`);
  return lines.length > 0 ? lines : null;
}

/**
 * What differs, in words in each unit a member may read (the needs-attention page and the
 * notices it sends), from one plan of the template on the thermostat; null when nothing differs.
 */
export function driftWords(
  template: Template,
  state: Parameters<typeof planTemplate>[1],
): DriftWords | null {
  const plan = planTemplate(template, state);
  const F = driftLines(plan, 'F');
  return F ? { F, C: driftLines(plan, 'C') ?? F } : null;
}

export type DriftRound = { due: number; checked: number; drifted: number; failed: number };

/**
 * One minute's round: the assignments due for a check (unchecked for CHECK_EVERY_MS, the longest
 * unchecked first), as many as `callCap` service calls read, each read and planned. A read that
 * fails keeps the drift last found (nothing new is known) and waits its turn again. Nothing while
 * background reading is off (READINGS_TARGET_MINUTES=0). `service` is the real one through the
 * call budget; tests pass a stand-in.
 */
export async function checkDrift(
  input: { service?: TemplateService; now?: Date; callCap?: number } = {},
): Promise<DriftRound> {
  const none: DriftRound = { due: 0, checked: 0, drifted: 0, failed: 0 };
  if (freshnessTargetMs() === 0) return none;
  const service = input.service ?? serviceForTemplates;
  const callCap = input.callCap ?? driftCallsPerMinute();
  // Every check costs at least one call, so more than the cap could never be read in a round.
  const due = await listDueDriftChecks({
    now: input.now,
    checkEvery: CHECK_EVERY_MS,
    limit: callCap,
  });
  if (due.length === 0) return none;

  const templates = new Map<string, Promise<StoredTemplate | null>>();
  const templateOf = (check: DueDriftCheck) => {
    const key = `${check.orgId}:${check.templateId}`;
    let found = templates.get(key);
    if (!found) {
      found = findTemplate({ orgId: check.orgId, templateId: check.templateId }).catch(() => null);
      templates.set(key, found);
    }
    return found;
  };

  // Oldest first, while the round's calls last (the first always, so a round is never empty).
  const round: { check: DueDriftCheck; template: Template }[] = [];
  let spent = 0;
  for (const check of due) {
    const stored = await templateOf(check);
    // Deleted meanwhile: its assignments went with it (the foreign key cascades).
    if (!stored) continue;
    const template = checkedPart(stored.template);
    const cost = readsFor(template).length;
    if (round.length > 0 && spent + cost > callCap) break;
    spent += cost;
    round.push({ check, template });
  }

  const limit = pLimit(2);
  const results = await Promise.all(
    round.map(({ check, template }) =>
      limit(async (): Promise<'same' | 'drifted' | string> => {
        const reads = readsFor(template);
        let drift: DriftWords | null;
        try {
          const state =
            reads.length > 0
              ? await service.read({
                  orgId: check.orgId,
                  thermostatId: check.thermostatId,
                  reads,
                  accessControl: false,
                  priority: 'background',
                })
              : {};
          drift = driftWords(template, state);
        } catch (caught) {
          await saveDriftFailure({ ...check, at: input.now });
          return caught instanceof ServiceError ? caught.kind : 'unavailable';
        }
        await saveDriftCheck({ ...check, drift, at: input.now });
        return drift ? 'drifted' : 'same';
      }),
    ),
  );
  const failures = results.filter((result) => result !== 'same' && result !== 'drifted');
  if (failures.length > 0) {
    // Nothing is marked: the drift last found stays, and each is read again in its turn.
    logWarning(
      `template drift: ${failures.length} of ${round.length} reads failed`,
      [...new Set(failures)].join(', '),
    );
  }
  return {
    due: due.length,
    checked: results.length - failures.length,
    drifted: results.filter((result) => result === 'drifted').length,
    failed: failures.length,
  };
}
