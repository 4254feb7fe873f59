/**
 * Every kind of entry in the activity log, as `resource.verb`. Writers may record only these,
 * readers switch on them, and the stored rows were migrated to them (0003_organisations.sql).
 */
export const ACTIVITY_ACTIONS = {
  'portfolio.add': 'Added thermostats',
  'portfolio.remove': 'Removed a thermostat',
  'unit.replace_thermostat': 'Replaced a unit’s thermostat',
  'building.create': 'Added a building',
  'building.update': 'Changed a building',
  'thermostat.create': 'Created a thermostat',
  'thermostat.move': 'Moved a thermostat',
  'thermostat.rename': 'Relabelled a thermostat',
  'unit.state': 'Changed a unit’s occupancy',
  'unit.update': 'Changed a unit',
  'unit.create': 'Added a unit',
  'unit.policy_update': 'Changed occupancy policies',
  'unit.settings': 'Put a unit’s thermostat in its occupancy settings',
  'api.call': 'API call',
  'api_key.create': 'Created an API key',
  'api_key.revoke': 'Revoked an API key',
  'lease.event': 'Lease event',
  'lease.inbox': 'Made the lease inbox’s address and secret',
  'lease.map': 'Gave a unit the id of waiting lease events',
  'resident_mode.update': 'Resident mode',
  'schedule.update': 'Schedule',
  'comfort_setting.create': 'Created a comfort setting',
  'comfort_setting.update': 'Changed a comfort setting',
  'comfort_setting.delete': 'Deleted a comfort setting',
  'configuration.update': 'Configuration',
  'configuration.bulk_update': 'Bulk configuration',
  'template.create': 'Created a template',
  'template.update': 'Changed a template',
  'template.delete': 'Deleted a template',
  'template.apply': 'Applied a template',
  'change.undo': 'Undid a change',
  'group.create': 'Created a group',
  'group.update': 'Changed a group',
  'group.delete': 'Deleted a group',
  'access_control.update': 'Access control',
  'alert_settings.update': 'Alert settings',
  'connection.connect': 'Connected the service account',
  'connection.reconnect': 'Reconnected the service account',
  'connection.disconnect': 'Disconnected the service account',
  'connection.end': 'The service ended the connection',
  'member.sign_in': 'Signed in',
  'member.invite': 'Invited someone',
  'member.invite_revoke': 'Revoked an invitation',
  'member.join': 'Joined',
  'member.update': 'Changed a member',
  'member.remove': 'Removed a member',
  'member.leave': 'Left the organisation',
  'member.unlock': 'Unlocked a sign-in',
  'member.password_reset': 'Reset a password',
  'member.preferences_update': 'Changed their time zone or unit',
  'organization.update': 'Changed the organisation',
  'notification.rules_update': 'Changed notification rules',
  'notification.webhook_add': 'Added a webhook',
  'notification.webhook_remove': 'Removed a webhook',
  'notification.webhook_resume': 'Resumed a webhook',
} as const;

export type ActivityAction = keyof typeof ACTIVITY_ACTIONS;

export const ACTIVITY_ACTION_NAMES = Object.keys(ACTIVITY_ACTIONS) as ActivityAction[];

export function isActivityAction(value: string): value is ActivityAction {
  return Object.hasOwn(ACTIVITY_ACTIONS, value);
}
