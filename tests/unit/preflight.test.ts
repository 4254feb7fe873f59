import { describe, expect, it } from 'vitest';
import { type Facts, planPreflight } from '@/scripts/preflight';

// A Debian machine as root with everything installed, as CI runs; each test changes what it names.
const ready: Facts = {
  chromium: true,
  postgresql: true,
  root: true,
  aptGet: true,
  ci: false,
  testDatabaseUrl: false,
};

describe('what npm test needs from the machine', () => {
  it('runs at once when Chromium is there, and says the PostgreSQL suites are skipped locally', () => {
    const plan = planPreflight(ready);
    expect(plan.action).toBe('run');
    expect(plan.action === 'run' && plan.notes.join('\n')).toMatch(
      /PostgreSQL suites: skipped, TEST_DATABASE_URL is unset .*scripts\/test-postgres\.sh/,
    );
  });

  it('installs a missing Chromium from Debian when it runs as root with apt-get', () => {
    expect(planPreflight({ ...ready, chromium: false })).toMatchObject({
      action: 'install',
      packages: ['chromium'],
    });
  });

  it('stops with the one line that installs Chromium when it cannot install it itself', () => {
    expect(planPreflight({ ...ready, chromium: false, root: false })).toEqual({
      action: 'stop',
      line: 'Missing Chromium (end-to-end tests): install with `sudo apt-get install -y chromium`, then run npm test again.',
    });
    const plan = planPreflight({ ...ready, chromium: false, root: false, aptGet: false });
    expect(plan.action === 'stop' && plan.line).toContain('`npx playwright install chromium`');
  });

  it('in CI, needs the PostgreSQL server too, and installs it rather than skip its suites', () => {
    const ci = { ...ready, ci: true };
    expect(planPreflight(ci)).toMatchObject({ action: 'run' });
    expect(planPreflight({ ...ci, postgresql: false, chromium: false })).toMatchObject({
      action: 'install',
      packages: ['chromium', 'postgresql'],
    });
    expect(planPreflight({ ...ci, postgresql: false, root: false })).toEqual({
      action: 'stop',
      line: 'Missing PostgreSQL server (database tests): install with `sudo apt-get install -y postgresql`, then run npm test again.',
    });
  });

  it('needs no local PostgreSQL when TEST_DATABASE_URL names a server', () => {
    const plan = planPreflight({ ...ready, ci: true, testDatabaseUrl: true, postgresql: false });
    expect(plan.action).toBe('run');
    expect(plan.action === 'run' && plan.notes).toContain(
      'PostgreSQL suites: on the server TEST_DATABASE_URL names',
    );
  });

  it('outside CI, a machine without PostgreSQL still runs, and the note says what to install', () => {
    const plan = planPreflight({ ...ready, postgresql: false, root: false });
    expect(plan.action).toBe('run');
    expect(plan.action === 'run' && plan.notes.join('\n')).toContain(
      'sudo apt-get install -y postgresql',
    );
  });
});
