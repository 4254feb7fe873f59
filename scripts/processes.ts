// Long-lived child processes (the sandbox, `next start`, `next dev`) for the scripts and the e2e
// stack. Each child leads a process group of its own, and stopping it ends the whole group: the
// commands are wrappers (`npx` runs `tsx`, which runs `node`; `next dev` forks its server), and
// signalling only the wrapper leaves the real server behind as an orphan still holding its port
// and the pipes that keep the parent alive.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export interface StartOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** `inherit` shares this terminal; `pipe` keeps the output for `output()`. Default `pipe`. */
  output?: 'inherit' | 'pipe';
  /** Called with every chunk of output when `output` is `pipe`. */
  onOutput?: (chunk: string) => void;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ManagedProcess {
  readonly name: string;
  /** The child's pid, which is also its process group id. */
  readonly pid: number;
  readonly child: ChildProcess;
  /** Settles when the child itself exits (its own children may still run: see `stop`). */
  readonly exited: Promise<Exit>;
  /** The last output kept (`output: 'pipe'`): stdout and stderr interleaved. */
  output(): string;
  /** Ends the whole group: SIGTERM, then SIGKILL after `graceMs`; resolves once none is left. */
  stop(options?: { graceMs?: number }): Promise<void>;
}

const OUTPUT_KEPT = 256 * 1024;
const DEFAULT_GRACE_MS = 5_000;
const running = new Set<ManagedProcess>();

/** Starts `command` as the leader of a new process group (and session, so no terminal signals). */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  options: StartOptions = {},
): ManagedProcess {
  const mode = options.output ?? 'pipe';
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    // stdin is never the terminal's: a background group reading it would be stopped (SIGTTIN).
    stdio: ['ignore', mode, mode],
    detached: true,
  });
  if (child.pid === undefined) {
    // spawn reports ENOENT and the like as an event; make it a plain, immediate failure.
    child.once('error', () => {});
    throw new Error(`${name}: could not start ${command}`);
  }
  const pid = child.pid;
  let kept = '';
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    kept = (kept + text).slice(-OUTPUT_KEPT);
    options.onOutput?.(text);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  // After 'exit', once its pipes are read to the end: no output is lost.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));

  let stopping: Promise<void> | undefined;
  const managed: ManagedProcess = {
    name,
    pid,
    child,
    exited,
    output: () => kept,
    stop: (stopOptions = {}) => {
      stopping ??= stopGroup(managed, stopOptions.graceMs ?? DEFAULT_GRACE_MS).finally(async () => {
        running.delete(managed);
        // The last output is read; but whatever might still hold the pipes (a process that left
        // the group) must not keep this process alive.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          closed,
          new Promise((resolve) => (timer = setTimeout(resolve, 1_000))),
        ]);
        clearTimeout(timer);
        child.stdout?.destroy();
        child.stderr?.destroy();
      });
      return stopping;
    },
  };
  running.add(managed);
  installExitHook();
  return managed;
}

async function stopGroup(managed: ManagedProcess, graceMs: number) {
  if (!signalGroup(managed.pid, 'SIGTERM')) return;
  if (await groupGone(managed.pid, graceMs)) return;
  signalGroup(managed.pid, 'SIGKILL');
  if (await groupGone(managed.pid, 5_000)) return;
  throw new Error(
    `${managed.name}: processes ${groupMembers(managed.pid).join(', ')} survived SIGKILL`,
  );
}

let stoppingAll = false;
/** Stops every process this module started and has not stopped yet, in parallel. */
export async function stopAll(options: { graceMs?: number } = {}) {
  stoppingAll = true;
  await Promise.all([...running].map((managed) => managed.stop(options)));
}

/** Whether `stopAll` has begun: a child's exit is then expected, not news. */
export const isStoppingAll = () => stoppingAll;

/**
 * For a script that owns its terminal (bench, dev): on SIGINT, SIGTERM or SIGHUP, stop every
 * group, then exit as the signal would have (128 + its number) or with `exitCode`. Without it a
 * signal ends the script, and only the last-resort SIGKILL of the exit hook reaches the groups.
 */
export function stopAllOnSignals(options: { exitCode?: number } = {}) {
  for (const [signal, number] of [
    ['SIGINT', 2],
    ['SIGTERM', 15],
    ['SIGHUP', 1],
  ] as const) {
    process.once(signal, () => {
      void stopAll().finally(() => process.exit(options.exitCode ?? 128 + number));
    });
  }
}

let exitHookInstalled = false;
/** Last resort, synchronous: whatever is still running when this process exits is killed. */
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const managed of running) signalGroup(managed.pid, 'SIGKILL');
  });
}

/** Sends `signal` to the group; false when no process of it is left. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

async function groupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (groupMembers(pgid).length === 0) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The live processes of group `pgid`. On Linux from /proc, leaving out zombies (dead, holding no
 * port, waiting for whoever adopted them to reap them); elsewhere, whether the group answers a
 * signal at all (its leader's pid stands for it).
 */
export function groupMembers(pgid: number): number[] {
  if (!existsSync('/proc/self/stat')) return signalGroup(pgid, 0) ? [pgid] : [];
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // it ended while we looked
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(entry));
  }
  return members;
}
