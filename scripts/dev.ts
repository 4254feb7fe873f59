// `npm run dev`: the embedded default in one command. Starts the sandbox service (with its
// demo portfolio) and the app on PGlite, and stops both together: on Ctrl-C, or as soon as
// either of them stops by itself.
import { isStoppingAll, startProcess, stopAll, stopAllOnSignals } from './processes';

const APP_PORT = process.env.PORT ?? '3000';
const SANDBOX_PORT = process.env.SANDBOX_PORT ?? '4010';
const appUrl = `http://localhost:${APP_PORT}`;

// Ctrl-C is how this command is meant to end: exit 0, so npm reports no failure.
stopAllOnSignals({ exitCode: 0 });

// Both on this Node (24, from the `node` dev dependency), each leading its own process group so
// that stopping it also ends what it started (`next dev` forks its server).
const children = [
  startProcess('sandbox', process.execPath, ['--import', 'tsx', 'sandbox/src/main.ts'], {
    output: 'inherit',
    env: {
      SANDBOX_PORT,
      // The demo runs on localhost:3000, so the sandbox must accept a redirect URI with a port;
      // production never does (see sandbox/README.md).
      SANDBOX_ALLOW_REDIRECT_PORTS: '1',
      SANDBOX_CONTROL: '1',
    },
  }),
  startProcess(
    'app',
    process.execPath,
    ['node_modules/next/dist/bin/next', 'dev', '-p', APP_PORT],
    {
      output: 'inherit',
      env: {
        NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? appUrl,
        SERVICE_BASE_URL: process.env.SERVICE_BASE_URL ?? `http://127.0.0.1:${SANDBOX_PORT}`,
        SERVICE_ALLOW_REDIRECT_PORT: 'true',
        // Local development: a webhook may go to a receiver on this machine.
        WEBHOOK_ALLOW_PRIVATE_HOSTS: process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS ?? 'true',
      },
    },
  ),
];
for (const child of children) {
  void child.exited.then(async ({ code }) => {
    if (isStoppingAll()) return;
    console.log(`\n${child.name} stopped (exit ${code ?? 'signal'}); stopping the rest.`);
    await stopAll();
    process.exit(code ?? 1);
  });
}

console.log(`
  Setpoint (embedded default: sandbox service + PGlite in .data/ + app)
  Open ${appUrl}
  First run: create your account on the setup page, then sign in.
  Sandbox demo account for connecting: demo@sandbox.test / demo-password
`);
