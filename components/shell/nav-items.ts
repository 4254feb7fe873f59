import { TEMPLATE_RUNS_PATH } from '@/lib/runs/paths';

/**
 * The app's sections, in navigation order. Features add their entry here. A section is current
 * on its own path and below it, and on the other paths it lists (`also`): the portfolio's pages
 * are reached from the overview, and a template's runs are the template's.
 */
export const NAV_ITEMS = [
  { href: '/', label: 'Overview', also: ['/buildings', '/thermostats', '/portfolio'] },
  { href: '/attention', label: 'Needs attention' },
  { href: '/notifications', label: 'Notifications' },
  { href: '/bulk', label: 'Bulk changes' },
  { href: '/templates', label: 'Templates', also: [TEMPLATE_RUNS_PATH] },
  { href: '/groups', label: 'Groups' },
  { href: '/activity', label: 'Activity' },
  { href: '/members', label: 'Members' },
  { href: '/connection', label: 'Connection' },
] as const satisfies readonly { href: string; label: string; also?: readonly string[] }[];

export type NavItem = (typeof NAV_ITEMS)[number];

/** Whether `pathname` is `base` or a page below it, segment by segment ('/bulk' is not '/bulky'). */
function isWithin(pathname: string, base: string): boolean {
  if (base === '/') return pathname === '/';
  return pathname === base || pathname.startsWith(`${base}/`);
}

/**
 * The section a page belongs to (its item's `href`), or null for a page of none. The most
 * specific path decides: '/bulk/template-runs/…' is Templates', though it is below '/bulk' too.
 */
export function currentSection(pathname: string): string | null {
  let best: { href: string; length: number } | null = null;
  for (const item of NAV_ITEMS) {
    const paths: readonly string[] = 'also' in item ? [item.href, ...item.also] : [item.href];
    for (const path of paths) {
      if (isWithin(pathname, path) && (best === null || path.length > best.length)) {
        best = { href: item.href, length: path.length };
      }
    }
  }
  return best?.href ?? null;
}
