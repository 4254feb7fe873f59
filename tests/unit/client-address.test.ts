import { describe, expect, it } from 'vitest';
import { deviceCookieValue, deviceOf } from '@/lib/auth/device';
import { clientAddressOf, parseTrustedProxies } from '@/lib/platform/client-address';

describe('client address (server.ts)', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    for (const forwardedFor of [undefined, '203.0.113.9', '1.1.1.1, 2.2.2.2', ['9.9.9.9']]) {
      expect(
        clientAddressOf({ socketAddress: '::ffff:192.0.2.7', forwardedFor, trustedProxies: 0 }),
      ).toBe('192.0.2.7');
    }
    expect(
      clientAddressOf({ socketAddress: undefined, forwardedFor: 'x', trustedProxies: 0 }),
    ).toBe('unknown');
  });

  it('with N trusted proxies, is the entry N hops from the right, the socket peer being hop 0', () => {
    const at = (forwardedFor: string | string[] | undefined, trustedProxies: number) =>
      clientAddressOf({ socketAddress: '10.0.0.2', forwardedFor, trustedProxies });
    // client 203.0.113.10 -> proxy 198.51.100.7 -> proxy 10.0.0.2 -> us; the client forged 6.6.6.6
    const chain = '6.6.6.6, 203.0.113.10, 198.51.100.7';
    expect(at(chain, 1)).toBe('198.51.100.7');
    expect(at(chain, 2)).toBe('203.0.113.10');
    expect(at(['6.6.6.6', '203.0.113.10, 198.51.100.7'], 2)).toBe('203.0.113.10');
    // A request that reached us without passing every proxy: its leftmost entry, or the peer.
    expect(at('203.0.113.10', 3)).toBe('203.0.113.10');
    expect(at(undefined, 1)).toBe('10.0.0.2');
    expect(at(` ${'9'.repeat(200)} `, 1)).toHaveLength(64);
  });

  it('reads TRUSTED_PROXIES as a small whole number, refusing anything else', () => {
    expect(parseTrustedProxies(undefined)).toBe(0);
    expect(parseTrustedProxies(' 2 ')).toBe(2);
    for (const value of ['-1', '1.5', 'one', '11', '999']) {
      expect(() => parseTrustedProxies(value)).toThrow(/TRUSTED_PROXIES/);
    }
  });
});

describe('device cookie', () => {
  const secret = 'k3J9x-Qw81_zPz0vLrT5mN2bYc7dHf4gAe6s';

  it('names its device for its own account only, and only when signed with our key', () => {
    const value = deviceCookieValue('Owner@Example.com', secret, 'device-1');
    expect(deviceOf(value, 'owner@example.com', secret)).toBe('device-1');
    expect(deviceOf(value, 'other@example.com', secret)).toBeNull();
    expect(deviceOf(value, 'owner@example.com', `${secret}x`)).toBeNull();
    const [id, named, signed] = value.split('.');
    expect(deviceOf(`device-2.${named}.${signed}`, 'owner@example.com', secret)).toBeNull();
    expect(deviceOf(`${id}.${named}.${signed}.x`, 'owner@example.com', secret)).toBeNull();
    for (const junk of [undefined, '', 'a.b', '...', `${id}.${named}.`]) {
      expect(deviceOf(junk, 'owner@example.com', secret)).toBeNull();
    }
  });
});
