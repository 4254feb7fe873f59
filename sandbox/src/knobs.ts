import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LatencySpec } from './config';
import type { Fault, FaultKind, FiredFault, SandboxContext } from './context';
import { sleep } from './http-util';

/** Realism knobs: latency, injected faults, random error rates and rate limits. */

function latencyOf(spec: LatencySpec): number {
  if (typeof spec === 'number') return spec;
  return spec.min + Math.random() * Math.max(0, spec.max - spec.min);
}

export async function applyLatency(ctx: SandboxContext, key: string): Promise<void> {
  const spec = ctx.knobs.endpointLatencyMs[key] ?? ctx.knobs.latencyMs;
  const ms = latencyOf(spec);
  if (ms > 0) await sleep(ms);
}

function fires(fault: Fault): boolean {
  if (fault.count !== null && fault.count <= 0) return false;
  if (fault.probability < 1 && Math.random() >= fault.probability) return false;
  if (fault.count !== null) fault.count--;
  return true;
}

/** A thermostat-specific status fault that is not applied fails only its item of a bulk update. */
function isItemFault(fault: Fault): boolean {
  return fault.thermostatId !== null && typeof fault.kind === 'number' && !fault.applied;
}

/** The request-level fault to inject, if any. Item-level (bulk) faults are not taken here. */
export function takeFault(
  ctx: SandboxContext,
  key: string,
  params: Record<string, string>,
  isBulk: boolean,
): FiredFault | null {
  for (const fault of ctx.faults) {
    if (fault.endpoint !== '*' && fault.endpoint !== key) continue;
    if (fault.thermostatId !== null) {
      if (isBulk && isItemFault(fault)) continue;
      if (!isBulk && params.id !== fault.thermostatId) continue;
    }
    if (fires(fault)) return counted(ctx, fault.kind, fault.applied);
  }
  const { dropRate, timeoutRate, errorRate } = ctx.knobs;
  const roll = Math.random();
  if (roll < dropRate) return counted(ctx, 'drop');
  if (roll < dropRate + timeoutRate) return counted(ctx, 'timeout');
  if (roll < dropRate + timeoutRate + errorRate) {
    return counted(ctx, Math.random() < 0.5 ? 500 : 503);
  }
  return null;
}

function counted(ctx: SandboxContext, kind: FaultKind, applied = false): FiredFault {
  ctx.countInjected(kind, applied);
  return { kind, applied };
}

/** A thermostat-specific status fault for one item of a bulk request. */
export function takeItemFault(
  ctx: SandboxContext,
  key: string,
  thermostatId: string,
): number | null {
  for (const fault of ctx.faults) {
    if (fault.endpoint !== '*' && fault.endpoint !== key) continue;
    if (!isItemFault(fault) || fault.thermostatId !== thermostatId) continue;
    if (fires(fault)) {
      ctx.countInjected(fault.kind);
      return fault.kind as number;
    }
  }
  return null;
}

/** A `timeout` fault: never answer; close the socket after the configured time. */
export function holdRequest(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse): void {
  const timer = setTimeout(() => {
    req.socket.destroy();
  }, ctx.knobs.timeoutMs);
  res.on('close', () => {
    clearTimeout(timer);
  });
}

export interface RateDecision {
  headers: Record<string, string>;
  retryAfter: number | null;
}

/** Fixed-window per-IP limits (second, minute, hour) on the sandbox clock. */
export function checkRateLimit(ctx: SandboxContext, ip: string): RateDecision | null {
  const limit = ctx.knobs.rateLimit;
  if (!limit) return null;
  const now = ctx.clock.now();
  const windows = [
    ['second', 1000, limit.perSecond],
    ['minute', 60_000, limit.perMinute],
    ['hour', 3_600_000, limit.perHour],
  ] as const;
  const headers: Record<string, string> = {};
  let retryAfter: number | null = null;
  const entries = windows.map(([name, size, max]) => {
    const start = Math.floor(now / size) * size;
    const key = `ip:${ip}:${name}`;
    const entry = ctx.rateWindows.get(key);
    const current = entry && entry.start === start ? entry : { start, count: 0 };
    ctx.rateWindows.set(key, current);
    if (current.count >= max) {
      retryAfter = Math.max(retryAfter ?? 0, Math.ceil((start + size - now) / 1000));
    }
    return { name, max, current };
  });
  for (const { name, max, current } of entries) {
    if (retryAfter === null) {
      current.count++;
      ctx.ratePeaks.set(name, Math.max(ctx.ratePeaks.get(name) ?? 0, current.count));
    }
    headers[`x-ratelimit-limit-${name}`] = String(max);
    headers[`x-ratelimit-remaining-${name}`] = String(Math.max(0, max - current.count));
  }
  return { headers, retryAfter };
}
