/**
 * Notifications' SQL: incidents (opened and resolved by the reconcile job), the organisation's
 * rules, members' subscriptions, webhook endpoints, and the notices with their delivery log, a
 * file each. Every read of a member's view takes the organisation and, for incidents, the scope;
 * the jobs' writes take the ids of rows they read from the same organisation. Import from here.
 */
export * from './delivery';
export * from './endpoints';
export * from './incidents';
export * from './reading';
export type {
  Incident,
  IncidentRow,
  NotificationStatus,
  QueuedNotice,
  Subscription,
  WebhookEndpoint,
} from './rows';
export * from './subscribers';
