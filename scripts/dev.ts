// `npm run dev`: the embedded default in one command. Starts the sandbox service (with its
// demo portfolio) and the app on PGlite, and stops both together.
import { type ChildProcess, spawn } from 'node:child_process';

const APP_PORT = process.env.PORT ?? '3000';
const SANDBOX_PORT = process.env.SANDBOX_PORT ?? '4010';
const appUrl = `http://localhost:${APP_PORT}`;

const children: ChildProcess[] = [];
function run(name: string, command: string, args: string[], env: Record<string, string>) {
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code) => {
    console.log(`\n${name} stopped (exit ${code ?? 'signal'}); stopping the rest.`);
    shutdown(code ?? 1);
  });
  children.push(child);
}

let stopping = false;
function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

run('sandbox', 'npx', ['tsx', 'sandbox/src/main.ts'], {
  SANDBOX_PORT,
  // The demo runs on localhost:3000, so the sandbox must accept a redirect URI with a port;
  // production never does (see sandbox/README.md).
  SANDBOX_ALLOW_REDIRECT_PORTS: '1',
  SANDBOX_CONTROL: '1',
});
run('app', 'npx', ['next', 'dev', '-p', APP_PORT], {
  NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? appUrl,
  SERVICE_BASE_URL: process.env.SERVICE_BASE_URL ?? `http://127.0.0.1:${SANDBOX_PORT}`,
  SERVICE_ALLOW_REDIRECT_PORT: 'true',
});

console.log(`
  Setpoint (embedded default: sandbox service + PGlite in .data/ + app)
  Open ${appUrl}
  First run: create your account on the setup page, then sign in.
  Sandbox demo account for connecting: demo@sandbox.test / demo-password
`);
