// The first step of `npm test` (scripts/test-all.sh): what the suites need from the machine
// itself, checked before anything runs, so that a fresh machine fails in the first second with
// the line that fixes it instead of deep inside Playwright or a database test.
// - Chromium for the end-to-end tests: Debian's /usr/bin/chromium, or Playwright's own build.
// - PostgreSQL's server binaries, when the PostgreSQL suites are to run on a server started here:
//   in CI (CI is set) without TEST_DATABASE_URL. Elsewhere those suites are optional, and this
//   says whether they run.
// Missing packages are installed from Debian when that is possible (root, apt-get); otherwise it
// stops with the one command that installs them.
import { type ExecFileSyncOptions, execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type Package = 'chromium' | 'postgresql';

export interface Facts {
  /** /usr/bin/chromium, or the browser Playwright downloads, is there. */
  chromium: boolean;
  /** PostgreSQL's server binaries (initdb, pg_ctl) are there. */
  postgresql: boolean;
  root: boolean;
  aptGet: boolean;
  ci: boolean;
  testDatabaseUrl: boolean;
}

export type Plan =
  | { action: 'run'; notes: string[] }
  | { action: 'install'; packages: Package[]; notes: string[] }
  | { action: 'stop'; line: string };

const POSTGRES_SUITES_OPTIONAL =
  'PostgreSQL suites: skipped, TEST_DATABASE_URL is unset (to run them: export TEST_DATABASE_URL=$(bash scripts/test-postgres.sh))';

/** What to do about the machine, from what is true of it. */
export function planPreflight(facts: Facts): Plan {
  const needed: Package[] = ['chromium'];
  const notes: string[] = [];
  if (facts.testDatabaseUrl) {
    notes.push('PostgreSQL suites: on the server TEST_DATABASE_URL names');
  } else if (facts.ci) {
    // CI runs them on a server it starts here (scripts/test-postgres.sh): never skipped there.
    needed.push('postgresql');
    notes.push('PostgreSQL suites: on a throwaway server started here (CI)');
  } else {
    notes.push(
      facts.postgresql
        ? POSTGRES_SUITES_OPTIONAL
        : `${POSTGRES_SUITES_OPTIONAL}; its server needs: ${installLine(['postgresql'], facts)}`,
    );
  }
  const missing = needed.filter((name) => !facts[name]);
  if (missing.length === 0) return { action: 'run', notes };
  if (facts.root && facts.aptGet) return { action: 'install', packages: missing, notes };
  return {
    action: 'stop',
    line: `Missing ${missing.map(describe).join(' and ')}: install with \`${installLine(missing, facts)}\`, then run npm test again.`,
  };
}

const describe = (name: Package) =>
  name === 'chromium' ? 'Chromium (end-to-end tests)' : 'PostgreSQL server (database tests)';

/** The one command that installs `packages` on this kind of machine. */
function installLine(packages: Package[], facts: Facts): string {
  if (facts.aptGet) return `${facts.root ? '' : 'sudo '}apt-get install -y ${packages.join(' ')}`;
  // No Debian: Playwright brings its own Chromium; PostgreSQL comes from the system's packages.
  return packages
    .map((name) =>
      name === 'chromium'
        ? 'npx playwright install chromium'
        : 'your package manager: PostgreSQL 15 or later, server included',
    )
    .join(' and ');
}

export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(path.join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  const newest = versions.at(-1);
  return newest === undefined ? undefined : path.join(root, newest, 'bin');
}

function executable(file: string) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function chromiumPresent() {
  if (executable('/usr/bin/chromium')) return true;
  // playwright.config.ts falls back to the browser `npx playwright install chromium` downloads.
  const { chromium } = await import('@playwright/test');
  return executable(chromium.executablePath());
}

function onPath(command: string) {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir && executable(path.join(dir, command)));
}

async function readFacts(): Promise<Facts> {
  return {
    chromium: await chromiumPresent(),
    postgresql: postgresBinDir() !== undefined,
    root: process.getuid?.() === 0,
    aptGet: onPath('apt-get'),
    ci: Boolean(process.env.CI),
    testDatabaseUrl: Boolean(process.env.TEST_DATABASE_URL),
  };
}

function stop(line: string): never {
  console.error(line);
  process.exit(1);
}

async function main() {
  let plan = planPreflight(await readFacts());
  if (plan.action === 'install') {
    console.log(`Installing ${plan.packages.join(' and ')} from Debian (apt-get)…`);
    const apt: ExecFileSyncOptions = {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    };
    execFileSync('apt-get', ['update', '-qq'], apt);
    execFileSync('apt-get', ['install', '-y', '-qq', ...plan.packages], apt);
    plan = planPreflight(await readFacts());
  }
  if (plan.action === 'stop') stop(plan.line);
  if (plan.action === 'install')
    stop(`apt-get ran, yet ${plan.packages.join(' and ')} is missing.`);
  const url = process.env.TEST_DATABASE_URL;
  const problem = url ? await unreachable(url) : undefined;
  if (problem) {
    stop(
      `TEST_DATABASE_URL does not answer (${problem}): start a server with \`export TEST_DATABASE_URL=$(bash scripts/test-postgres.sh)\`, or unset it.`,
    );
  }
  console.log(`Node ${process.version}; Chromium: found`);
  for (const note of plan.notes) console.log(note);
}

/** Why the PostgreSQL server at `url` cannot be used, or undefined when it answers. */
async function unreachable(url: string): Promise<string | undefined> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

// Run as a script (`tsx scripts/preflight.ts`), not when a test imports planPreflight.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
