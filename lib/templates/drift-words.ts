import type { TemperatureUnit } from '@/lib/platform/units';

/**
 * What differs from a template, in words in each unit a member may read (°F and °C): the same
 * plan in either, so a member reads their own unit wherever the item goes (page, email, webhook).
 */
export type DriftWords = Record<TemperatureUnit, string[]>;
