/** The app's sections, in navigation order. Features add their entry here. */
export const NAV_ITEMS = [
  { href: '/', label: 'Overview' },
  { href: '/connection', label: 'Connection' },
] as const;
