import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { groupMembers, startProcess, stopAll } from '@/scripts/processes';

// A process tree like `npx tsx sandbox/src/main.ts`: a wrapper whose own child (the grandchild)
// is the server listening on the port. It says goodbye on SIGTERM, or with TERM_IGNORED shrugs
// it off.
const GRANDCHILD = `
  process.on('SIGTERM', () => {
    if (process.env.TERM_IGNORED) return;
    console.log('grandchild: SIGTERM, closing');
    process.exit(0);
  });
  require('node:http')
    .createServer((request, response) => response.end('ok'))
    .listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
`;
const TREE = `
  const grandchild = require('node:child_process').spawn(process.execPath, ['-e', process.env.GRANDCHILD], { stdio: 'inherit' });
  console.log('grandchild ' + grandchild.pid);
  setInterval(() => {}, 60_000);
`;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether a new server can listen on the port, i.e. nothing holds it any more. */
async function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function until<T>(
  read: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function startTree(env: Record<string, string> = {}) {
  const port = await freePort();
  const tree = startProcess('tree', process.execPath, ['-e', TREE], {
    env: { PORT: String(port), GRANDCHILD, ...env },
  });
  await until(() => (tree.output().includes('listening') ? true : undefined), 'the grandchild');
  const grandchild = Number(/grandchild (\d+)/.exec(tree.output())?.[1]);
  return { tree, port, grandchild };
}

afterEach(() => stopAll({ graceMs: 100 }));

describe('process groups', () => {
  it('stop ends the child and its grandchild and frees the port', async () => {
    const { tree, port, grandchild } = await startTree();
    expect(groupMembers(tree.pid).sort()).toEqual([tree.pid, grandchild].sort());
    expect(await portIsFree(port)).toBe(false);

    await tree.stop();

    expect(groupMembers(tree.pid)).toEqual([]);
    expect(await portIsFree(port)).toBe(true);
    expect(await tree.exited).toEqual({ code: null, signal: 'SIGTERM' });
    // What the tree wrote as it ended is kept.
    expect(tree.output()).toContain('grandchild: SIGTERM, closing');
  });

  it('a grandchild that ignores SIGTERM is killed once the grace period is over', async () => {
    const { tree, port } = await startTree({ TERM_IGNORED: '1' });
    const begun = Date.now();

    await tree.stop({ graceMs: 300 });

    expect(Date.now() - begun).toBeGreaterThanOrEqual(300);
    expect(groupMembers(tree.pid)).toEqual([]);
    expect(await portIsFree(port)).toBe(true);
  });

  it('stopping twice, or after the group ended by itself, is harmless', async () => {
    const { tree } = await startTree();
    await Promise.all([tree.stop(), tree.stop()]);
    await tree.stop();
    expect(groupMembers(tree.pid)).toEqual([]);

    const brief = startProcess('brief', process.execPath, ['-e', '']);
    expect(await brief.exited).toEqual({ code: 0, signal: null });
    await brief.stop();
  });
});

describe('a script that owns process groups', () => {
  const fixture = path.join(__dirname, 'fixtures', 'process-owner.ts');

  async function runOwner(mode: 'signal' | 'exit', env: Record<string, string>) {
    const owner = spawn(process.execPath, ['--import', 'tsx', fixture, mode], {
      cwd: path.join(__dirname, '..', '..'),
      env: { ...process.env, TREE_SCRIPT: TREE, GRANDCHILD, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    owner.stdout.on('data', (chunk) => {
      out += chunk;
    });
    const exited = new Promise<number | null>((resolve) => owner.once('exit', resolve));
    const group = await until(() => {
      const match = /ready (\d+)/.exec(out);
      return match ? Number(match[1]) : undefined;
    }, 'the owner to start its tree');
    return { owner, exited, group };
  }

  it('stops its groups when it is sent SIGTERM, and exits as the signal would', async () => {
    const port = await freePort();
    const { owner, exited, group } = await runOwner('signal', { PORT: String(port) });
    expect(groupMembers(group).length).toBe(2);

    owner.kill('SIGTERM');

    expect(await exited).toBe(128 + 15);
    expect(groupMembers(group)).toEqual([]);
    expect(await portIsFree(port)).toBe(true);
  });

  it('kills what it left running when it exits without stopping it', async () => {
    const port = await freePort();
    const { exited, group } = await runOwner('exit', { PORT: String(port) });

    expect(await exited).toBe(0);
    await until(() => (groupMembers(group).length === 0 ? true : undefined), 'the group to end');
    await until(async () => ((await portIsFree(port)) ? true : undefined), 'the port');
  });
});
