/** The app's sections, in navigation order. Features add their entry here. */
export const NAV_ITEMS = [
  { href: '/', label: 'Overview' },
  { href: '/attention', label: 'Needs attention' },
  { href: '/notifications', label: 'Notifications' },
  { href: '/bulk', label: 'Bulk changes' },
  { href: '/templates', label: 'Templates' },
  { href: '/groups', label: 'Groups' },
  { href: '/activity', label: 'Activity' },
  { href: '/members', label: 'Members' },
  { href: '/connection', label: 'Connection' },
] as const;
