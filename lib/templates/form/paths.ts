import type { LOCK_AREAS } from '@/lib/service/schemas';
import { alertFieldOf } from '@/lib/settings/alerts';
import { configurationFieldOf } from '@/lib/settings/configuration';
import {
  ACCESS_FIELD,
  type ComfortColumn,
  comfortField,
  lockField,
  RESIDENT_FIELD,
  rangeField,
} from './fields';

/**
 * The form field for a schema issue's path (a section's name for the section as a whole), given
 * the row each comfort setting and schedule range came from.
 */
export function fieldOfPath(
  path: readonly PropertyKey[],
  rowOf: readonly number[],
  rangeRowOf: readonly number[] = [],
): string {
  const [head, ...rest] = path;
  switch (head) {
    case undefined:
      return 'form';
    case 'name':
      return 'name';
    case 'comfortSettings': {
      const [index, column] = rest;
      if (typeof index === 'number' && typeof column === 'string') {
        return comfortField(rowOf[index] ?? index, column as ComfortColumn);
      }
      return 'comfortSettings';
    }
    case 'schedule':
      return 'schedule';
    case 'scheduleRanges': {
      const [index, key] = rest;
      const column = ({ days: 'days', firstSlot: 'from', lastSlot: 'to', name: 'name' } as const)[
        String(key) as 'days'
      ];
      return typeof index === 'number' && column
        ? rangeField(rangeRowOf[index] ?? index, column)
        : 'scheduleRanges';
    }
    case 'configuration': {
      const field = configurationFieldOf(rest.map(String).join('.'));
      return field === 'form' ? 'configuration' : field;
    }
    case 'alerts': {
      const field = alertFieldOf(rest.map(String).join('.'));
      return field === 'form' ? 'alerts' : field;
    }
    case 'residentMode':
      return RESIDENT_FIELD;
    case 'accessControl': {
      const [settings, area] = rest;
      return settings === 'settings' && typeof area === 'string'
        ? lockField(area as (typeof LOCK_AREAS)[number])
        : ACCESS_FIELD;
    }
    default:
      return 'form';
  }
}
