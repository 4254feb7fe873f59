import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import * as api from '@/lib/service/resources';
import type { RunningSandbox } from '@/sandbox/src/server';
import { useDatabase } from '../support/database';
import { connectedOwner, control as controlOf, startServiceForTests } from '../support/service';

// The call budget counts a call from the moment it takes its slot; the service counts it when
// it arrives. Between the two, a call can be held up (a busy process or network, a slow token)
// and arrive in the service's next second beside that second's own calls. Here a proxy between
// the app and the sandbox holds every request made in the first half of an even second of the
// service's clock and lets them through together as that second ends: with the burst of reads
// starting as such a second begins, the first calls are held every time.
let sandbox: RunningSandbox;
let proxy: Server;
let held = 0;
let handle: DatabaseHandle;
let orgId: string;
let thermostats: string[];
const control = (method: string, route: string, body?: unknown) =>
  controlOf(sandbox, method, route, body);

const HOLD_MS = 500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Forwards to the sandbox; what comes in early in an even second waits for it to end. */
function startHoldingProxy(): Promise<Server> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const intoPair = Date.now() % 2000;
    if (intoPair < HOLD_MS) {
      held += 1;
      await sleep(1000 - intoPair);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'connection')
        headers.set(name, value);
    }
    const answer = await fetch(new URL(req.url ?? '/', sandbox.url), {
      method: req.method,
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      redirect: 'manual',
    });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  proxy = await startHoldingProxy();
  sandbox = await startServiceForTests({
    // The app's budget at the production limits, reaching the service through the proxy.
    SERVICE_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
  });
  handle = await useDatabase({ kind: 'pglite', dataDir: 'memory://' });
  const owner = await connectedOwner(sandbox);
  orgId = owner.orgId;
  thermostats = (await control('GET', '/portfolio?user=demo')).thermostats.map(
    (t: { thermostatId: string }) => t.thermostatId,
  );
});
afterAll(async () => {
  await handle?.close();
  await sandbox?.close();
  await new Promise((resolve) => proxy?.close(resolve));
});

describe('the call budget and calls held up on their way', () => {
  it('counts a call until it has ended: calls held into the next second draw no 429', async () => {
    await control('PATCH', '/knobs', { rateLimit: 'production', latencyMs: 20 });
    await sleep(2000 - (Date.now() % 2000)); // an even second begins (the sandbox's clock is ours)
    // Count only the burst's calls: the token exchange in beforeAll went through the proxy too.
    held = 0;
    const statuses = await Promise.all(
      Array.from({ length: 240 }, (_, i) =>
        api.getStatus({ orgId, thermostatId: thermostats[i % thermostats.length] ?? '' }),
      ),
    );
    expect(statuses).toHaveLength(240);
    expect(held).toBeGreaterThan(0);
    const { injected } = await control('GET', '/injected');
    expect(injected.rate_limited ?? 0).toBe(0);
  });
});
