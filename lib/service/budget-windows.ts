import type { CallWindow } from '@/lib/service/budget-store';

// The call budget's windows, pure (no database, no configuration), so scripts such as the bench
// can work out the same floors the app plans with. lib/service/budget.ts takes calls
// against them.

export const PRIORITIES = { interactive: 0, page: 1, refresh: 2, background: 3 } as const;
export type Priority = keyof typeof PRIORITIES;

/** The share of each window a priority may fill: second, minute, hour. */
const SHARES: Record<Priority, [number, number, number]> = {
  interactive: [1, 1, 1],
  page: [0.9, 0.95, 0.99],
  refresh: [0.7, 0.85, 0.97],
  background: [0.6, 0.8, 0.95],
};

export type ServiceLimits = {
  perSecond: number;
  perMinute: number;
  perHour: number;
  tokenPerWindow: number;
  tokenWindowSeconds: number;
};

/** The budget for configured service limits: each a little under, never below 1. */
export function budgetWindows(limits: ServiceLimits, priority: Priority): CallWindow[] {
  const margin = (limit: number, fraction: number) =>
    Math.max(1, Math.min(limit - 1, Math.floor(limit * (1 - fraction))));
  const budget = [
    // A fifth under: the second is where the service's clock and ours differ most for their
    // size (calls are counted until they end, lib/service/budget-store.ts, so a late arrival is not
    // what this covers), and the hour, not the second, is what bounds the deployment's pace.
    { seconds: 1, cap: margin(limits.perSecond, 0.2) },
    { seconds: 60, cap: margin(limits.perMinute, 0.02) },
    { seconds: 3600, cap: margin(limits.perHour, 0.02) },
  ];
  const shares = SHARES[priority];
  return budget.map((window, index) => ({
    seconds: window.seconds,
    cap: Math.max(1, Math.floor(window.cap * (shares[index] ?? 1))),
  }));
}
