import { describe, expect, it } from 'vitest';
import { currentSection, NAV_ITEMS } from '@/components/shell/nav-items';
import { runPath, runSection } from '@/lib/runs/requests';

/**
 * Which section every page is in, as the navigation marks it: a template's runs (its plan, then
 * its progress) are the template's, not Bulk changes'; the portfolio's pages are the overview's.
 */

const run = (
  kind: 'configuration' | 'template' | 'undo',
  changes: Record<string, unknown> = {},
) => ({
  id: '1b7c2d0e-5f3a-4c8e-9d21-7a6b5c4d3e2f',
  kind,
  changes,
});

describe('a run’s page and section', () => {
  it('a template’s run is among Templates; every other run among Bulk changes', () => {
    expect(runSection(run('template', { template: {} }))).toBe('templates');
    expect(runSection(run('template', { oneOff: true }))).toBe('bulk');
    expect(runSection(run('configuration'))).toBe('bulk');
    expect(runSection(run('undo'))).toBe('bulk');
    expect(runPath(run('template', { template: {} }))).toBe(
      '/bulk/template-runs/1b7c2d0e-5f3a-4c8e-9d21-7a6b5c4d3e2f',
    );
    expect(runPath(run('configuration'))).toBe('/bulk/runs/1b7c2d0e-5f3a-4c8e-9d21-7a6b5c4d3e2f');
  });

  it('the navigation marks each page’s own section, the most specific path deciding', () => {
    const label = (path: string) =>
      NAV_ITEMS.find((item) => item.href === currentSection(path))?.label ?? null;
    expect(label(runPath(run('template', { template: {} })))).toBe('Templates');
    expect(label(runPath(run('template', { oneOff: true })))).toBe('Bulk changes');
    expect(label(runPath(run('configuration')))).toBe('Bulk changes');
    expect(label('/templates/3f0c/plan')).toBe('Templates');
    expect(label('/templates/new')).toBe('Templates');
    expect(label('/bulk')).toBe('Bulk changes');
    expect(label('/bulk/change')).toBe('Bulk changes');
    expect(label('/')).toBe('Overview');
    expect(label('/buildings/aaaaaaaaaaaaaaaaaaaaaaaa')).toBe('Overview');
    expect(label('/buildings/aaaaaaaaaaaaaaaaaaaaaaaa/new-thermostat')).toBe('Overview');
    expect(label('/thermostats/123456789012/schedule')).toBe('Overview');
    expect(label('/portfolio/add')).toBe('Overview');
    expect(label('/attention')).toBe('Needs attention');
    expect(label('/notifications')).toBe('Notifications');
    expect(label('/groups/5d1e')).toBe('Groups');
    expect(label('/activity')).toBe('Activity');
    expect(label('/members')).toBe('Members');
    expect(label('/connection')).toBe('Connection');
    // Segment by segment: a path that only starts with a section's letters is not in it.
    expect(label('/bulky')).toBe(null);
    expect(label('/account')).toBe(null);
  });
});
