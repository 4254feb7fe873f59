import 'server-only';
import { configurationKind } from '@/lib/bulk/kind';
import type { RunKinds } from '@/lib/runs/engine';
import { plannedKind } from '@/lib/templates/kind';
import { occupancyKind } from '@/lib/units/turnover/kind';

/**
 * Every kind of run the engine (lib/runs/engine.ts) works, by the name its row stores: a
 * configuration change is applied at once; a template, a one-off change (a template run with no
 * template) and an undo are planned, confirmed by a member, then applied; an occupancy run
 * puts a unit's thermostat in its state's settings a step at a time. A new kind in the
 * schema's `BULK_RUN_KINDS` fails the type check here until it is named.
 */
export const RUN_KINDS = {
  configuration: configurationKind(),
  template: plannedKind(),
  undo: plannedKind(),
  occupancy: occupancyKind(),
} as const satisfies RunKinds;
