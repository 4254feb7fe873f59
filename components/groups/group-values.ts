import type { GroupKind } from '@/lib/groups/schema';

// Plain values, apart from the client form: a server page that imports them from a 'use client'
// module gets a reference to the client module, not the object.

/** A group's fields as the form starts (and as a failed post refills them: lists comma-joined). */
export type GroupFormValues = {
  name: string;
  kind: GroupKind;
  thermostatIds: string[];
  buildingIds: string[];
  label: string;
  connection: string;
  resident: string;
  attention: string[];
};

export const EMPTY_GROUP: GroupFormValues = {
  name: '',
  kind: 'picked',
  thermostatIds: [],
  buildingIds: [],
  label: '',
  connection: '',
  resident: '',
  attention: [],
};
