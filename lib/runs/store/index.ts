/**
 * Runs of every kind (a configuration change, a template, a one-off change, an undo) and their
 * items: what a run is to do, what each thermostat's request came to, and the lease that lets one
 * worker at a time apply it. In three parts: what members read (`runs.ts`), the worker's side
 * (`lease.ts`) and a planned run's plans and steps (`planned.ts`). Import from here. (The tables
 * keep their first name, `bulk_runs`: no migration for a word.)
 */
export * from './lease';
export * from './planned';
export type {
  BulkItemOutcome,
  BulkRun,
  BulkRunItem,
  FinalOutcome,
  ItemResult,
  Tx,
} from './rows';
export { itemsInView } from './rows';
export * from './runs';
