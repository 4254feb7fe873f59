import type { TemperatureRange } from '@/lib/platform/units';
import type { LOCK_AREAS } from '@/lib/service/schemas';
import type { Template } from '../schema';

/** The template form's values, errors and results, shared by its sections and its entry points. */

export type TemplateFormValues = Record<string, string>;
export type TemplateFormErrors = Record<string, string[]>;
/** Exact °F by form field, for values left as they were shown. */
export type Originals = Record<string, number>;

/** A template, or something on its way to being one (read from a thermostat): loosely typed. */
export type TemplateDraft = {
  name?: string;
  comfortSettings?: readonly {
    name: string;
    desiredHeat: number;
    desiredCool: number;
    fanHeat?: string;
    fanCool?: string;
  }[];
  schedule?: readonly (readonly string[])[];
  configuration?: {
    heatRange?: TemperatureRange;
    coolRange?: TemperatureRange;
    holdAction?: string;
    fanMinimumOnTime?: number;
  };
  alerts?: {
    hvacMaintenanceReminder?: {
      enabled?: boolean;
      lastMaintenanceDate?: string | null;
      maintenanceInterval?: number;
      maintenanceIntervalUnits?: 'month' | 'hour';
    };
    lowTemperatureAlert?: { enabled?: boolean; value?: number };
    highTemperatureAlert?: { enabled?: boolean; value?: number };
    lowHumidityAlert?: { enabled?: boolean; value?: number };
    highHumidityAlert?: { enabled?: boolean; value?: number };
  };
  accessControl?: {
    enabled: boolean;
    settings?: Partial<Record<(typeof LOCK_AREAS)[number], boolean>>;
  };
  residentMode?: boolean;
  scheduleRanges?: readonly {
    days: readonly string[];
    firstSlot: number;
    lastSlot: number;
    name: string;
  }[];
};

export type TemplateFormSource =
  /** A new template: the captured schedule and the pre-filled °F come with the post. */
  | { kind: 'new' }
  /** An edit: both come from the stored template, whatever is posted. */
  | { kind: 'edit'; current: Template };

export type TemplateFormResult =
  | { ok: true; template: Template }
  | { ok: false; fieldErrors: TemplateFormErrors };
