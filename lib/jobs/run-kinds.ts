import 'server-only';
import { configurationKind } from '@/lib/bulk/kind';
import type { RunKinds } from '@/lib/runs/engine';
import { plannedKind } from '@/lib/templates/kind';

/**
 * Every kind of run the engine (lib/runs/engine.ts) works, by the name its row stores: a
 * configuration change is applied at once; a template, a one-off change (a template run with no
 * template) and an undo are planned, confirmed by a member, then applied. A new kind in the
 * schema's `BULK_RUN_KINDS` fails the type check here until it is named.
 */
export const RUN_KINDS = {
  configuration: configurationKind(),
  template: plannedKind(),
  undo: plannedKind(),
} as const satisfies RunKinds;
