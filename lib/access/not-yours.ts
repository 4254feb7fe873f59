/** The records a member may ask for by id, each answered the same way when it is not theirs. */
export type OwnedRecord =
  | 'thermostat'
  | 'building'
  | 'unit'
  | 'run'
  | 'group'
  | 'template'
  | 'webhook'
  | 'member'
  | 'entry';

const WHERE: Record<OwnedRecord, string> = {
  thermostat: 'your portfolio',
  building: 'your portfolio',
  unit: 'your portfolio',
  run: 'your portfolio',
  group: 'your organisation',
  template: 'your organisation',
  webhook: 'your organisation',
  member: 'your organisation',
  entry: 'your activity log',
};

/**
 * The one answer for a record outside the member's reach, in the same words whether it belongs
 * to another organisation, to buildings they do not manage, or to no one: an id tried tells
 * nothing of what exists beyond their scope.
 */
export function notYours(record: OwnedRecord): string {
  return `That ${record} is not in ${WHERE[record]}.`;
}
