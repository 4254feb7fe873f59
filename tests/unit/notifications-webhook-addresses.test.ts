import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver } from '../support/webhook-receiver';

// Webhooks reach the public internet only (server-side request forgery): an owner or admin must
// not make Setpoint's server POST to its own network. The address is classified, refused when the
// webhook is saved, and refused again at delivery on the address the connection resolves to. The
// configuration here leaves WEBHOOK_ALLOW_PRIVATE_HOSTS unset (off), as in a deployment; the
// receiver on 127.0.0.1 is what a request must never reach.
const receiver = await startWebhookReceiver();
Object.assign(process.env, {
  AUTH_SECRET: randomBytes(32).toString('base64url'),
  TOKEN_KEYS: `1:${randomBytes(32).toString('base64url')}`,
  DATA_DIR: mkdtempSync(path.join(tmpdir(), 'setpoint-hook-addresses-')),
  READINGS_TARGET_MINUTES: '5',
  NEXTAUTH_URL: 'https://setpoint.example.com',
});
delete process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS;

const { hostProblem, isPublicAddress, nonPublicAddressKind, resolvedAddressProblem } = await import(
  '@/lib/notifications/public-addresses'
);
const { postWebhook } = await import('@/lib/notifications/webhooks');
const { findWebhookEndpoint, listDeliveryLog } = await import('@/lib/notifications/store');
const { addThermostat, ensureBuilding } = await import('@/lib/portfolio/store');
const { deliverNotices, sendTestWebhook } = await import('@/lib/notifications/delivery');
const { reconcileOrganization } = await import('@/lib/notifications/incidents');
const { addWebhook, webhookSchema } = await import('@/lib/notifications/settings');
const { connectEveryOrganization, databaseTargets } = await import('../support/database');
const { databaseWithQueue, storeReading } = await import('../support/notifications');
const { createFirstOwner } = await import('../support/members');

import { rowsOf } from '@/lib/db/client';
import type { Member } from '@/lib/auth/store';

afterAll(async () => {
  await receiver.close();
});

const PUBLIC_ONLY = 'Setpoint sends webhooks only to public internet addresses.';

describe('which addresses are the public internet', () => {
  it.each([
    ['10.0.0.1', 'a private network address'],
    ['172.16.5.4', 'a private network address'],
    ['172.31.255.255', 'a private network address'],
    ['192.168.1.10', 'a private network address'],
    ['127.0.0.1', 'a loopback address (this machine)'],
    ['127.255.0.9', 'a loopback address (this machine)'],
    ['169.254.169.254', 'a link-local address (such as a cloud’s metadata service)'],
    ['100.64.0.1', 'a shared (carrier-grade NAT) address'],
    ['0.0.0.0', 'an unspecified address (“this network”)'],
    ['192.0.2.1', 'an address reserved for documentation'],
    ['224.0.0.251', 'a multicast address'],
    ['198.18.0.1', 'a reserved or special-purpose address'],
    ['255.255.255.255', 'a reserved or special-purpose address'],
  ])('IPv4 %s is %s', (address, kind) => {
    expect(nonPublicAddressKind(address)).toBe(kind);
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['::1', 'a loopback address (this machine)'],
    ['[::1]', 'a loopback address (this machine)'],
    ['::', 'an unspecified address (“this network”)'],
    ['fe80::1', 'a link-local address (such as a cloud’s metadata service)'],
    ['fd00:ec2::254', 'a unique local (private) IPv6 address'],
    ['fc00::1', 'a unique local (private) IPv6 address'],
    ['ff02::1', 'a multicast address'],
    ['2001:db8::1', 'an address reserved for documentation'],
    // Teredo, which carries an (obfuscated) IPv4 address.
    ['2001:0:4136:e378::1', 'a reserved or special-purpose address'],
    // IPv4-compatible (deprecated), outside global unicast.
    ['::127.0.0.1', 'a reserved or special-purpose address'],
  ])('IPv6 %s is %s', (address, kind) => {
    expect(nonPublicAddressKind(address)).toBe(kind);
  });

  it.each([
    // IPv4-mapped, in both spellings.
    ['::ffff:127.0.0.1', 'a loopback address (this machine)'],
    ['::ffff:7f00:1', 'a loopback address (this machine)'],
    ['::ffff:10.1.2.3', 'a private network address'],
    ['::ffff:a9fe:a9fe', 'a link-local address (such as a cloud’s metadata service)'],
    // NAT64 and 6to4 reach the IPv4 address they carry.
    ['64:ff9b::169.254.169.254', 'a link-local address (such as a cloud’s metadata service)'],
    ['2002:c0a8:0101::1', 'a private network address'],
  ])('an IPv6 address carrying IPv4 (%s) is judged by it: %s', (address, kind) => {
    expect(nonPublicAddressKind(address)).toBe(kind);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
  ])('%s is public', (address) => {
    expect(nonPublicAddressKind(address)).toBeNull();
    expect(isPublicAddress(address)).toBe(true);
  });

  it('reads a host name alone: this machine and local network names are not public', () => {
    expect(hostProblem('localhost')).toBe('localhost is this machine');
    expect(hostProblem('LOCALHOST.')).toBe('localhost is this machine');
    expect(hostProblem('api.localhost')).toBe('api.localhost is this machine');
    expect(hostProblem('metadata.google.internal')).toBe(
      'metadata.google.internal is a local network name',
    );
    expect(hostProblem('printer.local')).toBe('printer.local is a local network name');
    expect(hostProblem('intranet')).toBe('intranet is a local network name');
    expect(hostProblem('[fd00::1]')).toBe('[fd00::1] is a unique local (private) IPv6 address');
    expect(hostProblem('hooks.example.com')).toBeNull();
    expect(hostProblem('8.8.8.8')).toBeNull();
  });

  it('reads what a name resolves to now, naming the kind of address but not the address', async () => {
    expect(await resolvedAddressProblem('localhost')).toBe(
      'localhost resolves to a loopback address (this machine)',
    );
    // A name that does not resolve passes here: delivery checks again as it connects.
    expect(await resolvedAddressProblem('nothing-here.invalid')).toBeNull();
  });
});

describe('saving a webhook', () => {
  const parse = (url: string) =>
    webhookSchema.safeParse({
      url,
      description: '',
      kinds: ['offline'],
      buildings: { buildingScope: 'all', buildingIds: [] },
    }).error?.issues[0]?.message;

  it.each([
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
    ['http://10.0.0.5/hook', '10.0.0.5 is a private network address'],
    ['http://192.168.1.1:8080/', '192.168.1.1 is a private network address'],
    ['http://127.0.0.1:3000/api', '127.0.0.1 is a loopback address'],
    // The URL parser's other spellings of 127.0.0.1.
    ['http://2130706433/', '127.0.0.1 is a loopback address'],
    ['http://0x7f.1/', '127.0.0.1 is a loopback address'],
    ['http://[::1]:8080/', '[::1] is a loopback address'],
    ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1] is a loopback address'],
    ['https://[fd00:ec2::254]/', '[fd00:ec2::254] is a unique local (private) IPv6 address'],
    ['http://[fe80::1]/', '[fe80::1] is a link-local address'],
    ['http://localhost:3000/', 'localhost is this machine'],
    ['https://metadata.google.internal/computeMetadata/v1/', 'is a local network name'],
  ])('refuses %s with a field error in plain words', (url, words) => {
    const message = parse(url);
    expect(message).toContain('Use a public internet address: ');
    expect(message).toContain(words);
    expect(message).toContain(PUBLIC_ONLY);
  });

  it('still refuses other schemes and credentials, and takes a public address', () => {
    expect(parse('file:///etc/passwd')).toBe('Use an https:// address.');
    expect(parse('gopher://example.com/')).toBe('Use an https:// address.');
    expect(parse('https://user:pw@hooks.example.com/')).toMatch(
      /Leave the user name and password out/,
    );
    expect(parse('https://hooks.example.com/in')).toBeUndefined();
    expect(parse('https://8.8.8.8/in')).toBeUndefined();
  });
});

describe('sending a webhook', () => {
  const signed = {
    secret: `whsec_${randomBytes(32).toString('base64')}`,
    msgId: 'msg_address_test',
    payload: '{}',
  };
  const port = () => new URL(receiver.url).port;

  it('refuses an IP address that is not public, and a name that resolves to one, before sending', async () => {
    for (const url of [
      receiver.url,
      `http://[::ffff:127.0.0.1]:${port()}/setpoint`,
      `http://localhost:${port()}/setpoint`,
    ]) {
      const result = await postWebhook({ ...signed, url });
      expect(result).toMatchObject({ ok: false, refused: true });
      expect(!result.ok && result.reason).toMatch(/^Not sent: .* (is|resolves to) a loopback/);
    }
    expect(await postWebhook({ ...signed, url: `http://localhost:${port()}/x` })).toEqual({
      ok: false,
      refused: true,
      reason: `Not sent: localhost resolves to a loopback address (this machine). ${PUBLIC_ONLY}`,
    });
    expect(receiver.received).toHaveLength(0);
  });

  it('with private hosts allowed (tests, local development), reaches the local receiver', async () => {
    receiver.setSecret(signed.secret);
    const result = await postWebhook({
      ...signed,
      msgId: 'msg_allowed',
      url: `http://localhost:${port()}/setpoint`,
      allowPrivateHosts: true,
    });
    expect(result).toEqual({ ok: true, status: 204 });
    expect(receiver.received.at(-1)).toMatchObject({ id: 'msg_allowed', refusal: null });
    receiver.received.length = 0;
  });

  it('says in words why an endpoint could not be reached, keeping the code for its owner', async () => {
    // A port nothing listens on: taken from the system, then let go.
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    expect(
      await postWebhook({
        ...signed,
        msgId: 'msg_closed',
        url: `http://127.0.0.1:${closed}/setpoint`,
        allowPrivateHosts: true,
      }),
    ).toEqual({
      ok: false,
      reason: 'Could not reach the endpoint: nothing answered at that address (ECONNREFUSED).',
    });
  });
});

describe.each(databaseTargets)(
  'webhook delivery to an address that is not public, on $name',
  ({ target }) => {
    const db = databaseWithQueue(target);
    let owner: Member;

    beforeEach(async () => {
      await db.handle.db.execute(sql`truncate users, organizations cascade`);
      receiver.received.length = 0;
      owner = await createFirstOwner('owner@example.com', 'Reyes Property');
      await ensureBuilding({
        orgId: owner.orgId,
        buildingId: 'aaaaaaaaaaaaaaaaaaaaaaaa',
        name: 'North House',
        timeZone: 'UTC',
      });
      await addThermostat({
        orgId: owner.orgId,
        thermostatId: '100000000001',
        buildingId: 'aaaaaaaaaaaaaaaaaaaaaaaa',
        unitLabel: 'Unit 1',
      });
      await connectEveryOrganization(db.handle);
    });

    /**
     * An endpoint saved while its name was public, whose name now leads to this machine (DNS
     * changed, or rebinds): its stored address is made the receiver's, through `localhost`.
     */
    async function endpointNowInside() {
      const parsed = webhookSchema.parse({
        url: 'https://hooks.example.com/setpoint',
        description: 'Work orders',
        kinds: ['offline'],
        buildings: { buildingScope: 'all', buildingIds: [] },
      });
      const added = await addWebhook({
        orgId: owner.orgId,
        createdByName: 'Owner',
        endpoint: parsed,
      });
      if (!added.ok) throw new Error('not added');
      receiver.setSecret(added.secret);
      const inside = `http://localhost:${new URL(receiver.url).port}/setpoint`;
      await db.handle.db.execute(
        sql`update webhook_endpoints set url = ${inside} where id = ${added.endpoint.id}`,
      );
      return added.endpoint;
    }

    it('refuses to save a name that resolves to this machine', async () => {
      const added = await addWebhook({
        orgId: owner.orgId,
        createdByName: 'Owner',
        // As the schema would pass a name it cannot judge alone (this one it could: see above).
        endpoint: {
          url: `http://localhost:${new URL(receiver.url).port}/setpoint`,
          description: '',
          kinds: ['offline'],
          buildings: null,
        },
      });
      expect(added).toEqual({
        ok: false,
        fieldErrors: {
          url: [
            `Use a public internet address: localhost resolves to a loopback address (this machine). ${PUBLIC_ONLY}`,
          ],
        },
      });
    });

    it('refuses a notice at connect time, logs why in plain words, and does not retry it', async () => {
      const endpoint = await endpointNowInside();
      await storeReading(owner.orgId, '100000000001', {
        connected: false,
        lastSeen: new Date(Date.now() - 40 * 60_000).toISOString(),
      });
      await reconcileOrganization({ orgId: owner.orgId });
      const ids = rowsOf<{ id: string }>(
        await db.handle.db.execute(sql`select id from notifications`),
      ).map((row) => row.id);
      expect(ids).toHaveLength(1);

      const outcome = await deliverNotices({ ids });
      expect(outcome).toMatchObject({ sent: 0, failed: 1, retry: false });
      const why = `Not sent: localhost resolves to a loopback address (this machine). ${PUBLIC_ONLY}`;
      expect((await listDeliveryLog({ orgId: owner.orgId }))[0]).toMatchObject({
        channel: 'webhook',
        status: 'failed',
        attempts: 1,
        lastError: why,
      });
      // Failed for good: a second delivery of the same notice sends nothing.
      expect(await deliverNotices({ ids })).toMatchObject({ sent: 0, failed: 0, retry: false });
      // The endpoint shows it failing, with the reason, for an owner or admin to fix.
      expect(await findWebhookEndpoint({ orgId: owner.orgId, id: endpoint.id })).toMatchObject({
        status: 'failing',
        consecutiveFailures: 1,
        lastError: why,
      });
      expect(receiver.received).toHaveLength(0);
    });

    it('refuses a test request to it, and says why', async () => {
      const endpoint = await endpointNowInside();
      const result = await sendTestWebhook({
        orgId: owner.orgId,
        endpointId: endpoint.id,
        recipient: 'https://hooks.example.com/…',
      });
      expect(result).toEqual({
        ok: false,
        message: `The endpoint did not accept the test request. Not sent: localhost resolves to a loopback address (this machine). ${PUBLIC_ONLY}`,
      });
      expect((await listDeliveryLog({ orgId: owner.orgId }))[0]).toMatchObject({
        status: 'failed',
        lastError: `Not sent: localhost resolves to a loopback address (this machine). ${PUBLIC_ONLY}`,
      });
      expect(receiver.received).toHaveLength(0);
    });
  },
);
