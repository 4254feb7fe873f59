/**
 * Where a run's page is. A template's own run (its plan, then its progress and results) lives
 * among Templates, so the navigation says Templates there; every other run (a configuration
 * change, a one-off change, an undo) among Bulk changes. Plain constants, so the navigation (a
 * client component) can use them without the run store; `runPath` in lib/runs/requests.ts picks one.
 */
export const BULK_RUNS_PATH = '/bulk/runs';
export const TEMPLATE_RUNS_PATH = '/bulk/template-runs';

/**
 * What a building's selection form adds to its request of the bulk page, so that page can tell
 * "Change selected…" with no row ticked (this, and no ids) from a visit of its own, and say so.
 */
export const FROM_SELECTION = { name: 'from', value: 'building' } as const;
