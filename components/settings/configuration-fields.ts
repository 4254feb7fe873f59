/**
 * The configuration fields that a thermostat's configuration form and the bulk configuration
 * form both ask for: the same name, label and keyboard in each.
 */

export const RANGE_FIELDS = ['heatMin', 'heatMax', 'coolMin', 'coolMax'] as const;
export type RangeField = (typeof RANGE_FIELDS)[number];

const RANGE_LABELS: Record<RangeField, string> = {
  heatMin: 'Heat minimum',
  heatMax: 'Heat maximum',
  coolMin: 'Cool minimum',
  coolMax: 'Cool maximum',
};

/** One end of the heat or cool range, labelled in the member's unit. */
export function rangeField(field: RangeField, unit: 'F' | 'C') {
  return { name: field, label: `${RANGE_LABELS[field]} (°${unit})`, inputMode: 'decimal' } as const;
}

export const fanOnTimeField = {
  name: 'fanMinimumOnTime',
  label: 'Fan minimum on-time (minutes per hour)',
  inputMode: 'numeric',
} as const;
