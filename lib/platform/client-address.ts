/**
 * Where a request comes from, as server.ts (the process that serves `npm start`) works it out
 * from the socket before Next.js sees the request. Next.js passes a client's own
 * X-Forwarded-For through untouched, so nothing else in the app may read that header.
 *
 * No imports: server.ts loads this file with Node's own TypeScript support, before Next.js.
 */

/** The one header the app reads a client's address from. server.ts replaces any sent value. */
export const CLIENT_ADDRESS_HEADER = 'x-setpoint-client-address';

/** Set on globalThis by server.ts: the header above is then trustworthy in this process. */
export const CLIENT_ADDRESS_MARK = Symbol.for('setpoint.client-address-header');

export const MAX_TRUSTED_PROXIES = 10;

/**
 * TRUSTED_PROXIES: how many proxies that append to X-Forwarded-For stand in front of the app
 * (0, the default: none, the socket's peer is the client).
 */
export function parseTrustedProxies(value: string | undefined): number {
  const text = value?.trim() || '0';
  const count = /^\d{1,2}$/.test(text) ? Number(text) : Number.NaN;
  if (!(count >= 0 && count <= MAX_TRUSTED_PROXIES)) {
    throw new Error(
      `TRUSTED_PROXIES must be a whole number from 0 to ${MAX_TRUSTED_PROXIES} (the proxies in front of Setpoint); it is ${JSON.stringify(value)}.`,
    );
  }
  return count;
}

/**
 * The client's address: the socket's peer with no trusted proxy; with N, the X-Forwarded-For
 * entry N hops from the right, counting the socket's peer (the nearest proxy) as hop 0. Each
 * trusted proxy appends the address it saw, so entries further left are the client's to write.
 * A shorter chain than expected (a request that bypassed a proxy) gives its leftmost entry.
 */
export function clientAddressOf(input: {
  socketAddress: string | undefined;
  forwardedFor: string | string[] | undefined;
  trustedProxies: number;
}): string {
  const socket = tidy(input.socketAddress ?? '') || 'unknown';
  if (input.trustedProxies <= 0) return socket;
  const forwarded = [input.forwardedFor ?? []]
    .flat()
    .join(',')
    .split(',')
    .map(tidy)
    .filter(Boolean);
  const hops = [...forwarded, socket];
  return hops[Math.max(0, hops.length - 1 - input.trustedProxies)] ?? socket;
}

/** One address as text: IPv4-mapped IPv6 unwrapped, bounded in length (it is stored). */
function tidy(address: string): string {
  return address
    .trim()
    .replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '')
    .slice(0, 64);
}
