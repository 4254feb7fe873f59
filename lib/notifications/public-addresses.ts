import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Which addresses a webhook may reach: the public internet only. An owner or admin chooses the
 * address, and Setpoint's server sends to it from inside its own network, so an address on that
 * network (a private range, this machine, a cloud's metadata service at 169.254.169.254) would
 * let them make the server POST where they could not. Classified with Node's `net.BlockList`,
 * from the IANA special-purpose registries; an IPv6 address that carries an IPv4 one (mapped,
 * NAT64, 6to4) is judged by the IPv4 address it reaches.
 */

type Range = readonly [network: string, prefix: number];

/** What each kind of address is, in the words the page and the delivery log use. */
const KINDS = {
  unspecified: 'an unspecified address (“this network”)',
  loopback: 'a loopback address (this machine)',
  private: 'a private network address',
  shared: 'a shared (carrier-grade NAT) address',
  linkLocal: 'a link-local address (such as a cloud’s metadata service)',
  uniqueLocal: 'a unique local (private) IPv6 address',
  documentation: 'an address reserved for documentation',
  multicast: 'a multicast address',
  reserved: 'a reserved or special-purpose address',
} as const;

const IPV4: Record<keyof typeof KINDS, Range[]> = {
  unspecified: [['0.0.0.0', 8]],
  loopback: [['127.0.0.0', 8]],
  private: [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
  ],
  shared: [['100.64.0.0', 10]],
  linkLocal: [['169.254.0.0', 16]],
  uniqueLocal: [],
  documentation: [
    ['192.0.2.0', 24],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
  ],
  multicast: [['224.0.0.0', 4]],
  reserved: [
    ['192.0.0.0', 24],
    ['192.88.99.0', 24],
    ['198.18.0.0', 15],
    // 240.0.0.0/4, with the broadcast address 255.255.255.255.
    ['240.0.0.0', 4],
  ],
};

const IPV6: Record<keyof typeof KINDS, Range[]> = {
  unspecified: [['::', 128]],
  loopback: [['::1', 128]],
  private: [['fec0::', 10]],
  shared: [],
  linkLocal: [['fe80::', 10]],
  uniqueLocal: [['fc00::', 7]],
  documentation: [
    ['2001:db8::', 32],
    ['3fff::', 20],
  ],
  multicast: [['ff00::', 8]],
  reserved: [
    // IETF protocol assignments, Teredo (2001::/32, an obfuscated IPv4 address) among them.
    ['2001::', 23],
    ['100::', 64],
    ['64:ff9b:1::', 48],
  ],
};

/** An IPv4 range as the IPv6 ranges that carry it: mapped, NAT64 (64:ff9b::/96) and 6to4. */
function carriers([network, prefix]: Range): Range[] {
  const [a = 0, b = 0, c = 0, d = 0] = network.split('.').map(Number);
  const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
  return [
    [`::ffff:${network}`, 96 + prefix],
    [`64:ff9b::${network}`, 96 + prefix],
    [`2002:${hex(a, b)}:${hex(c, d)}::`, 16 + prefix],
  ];
}

const BLOCKS = (Object.keys(KINDS) as (keyof typeof KINDS)[]).map((kind) => {
  const list = new BlockList();
  for (const range of IPV4[kind]) {
    list.addSubnet(range[0], range[1], 'ipv4');
    for (const [network, prefix] of carriers(range)) list.addSubnet(network, prefix, 'ipv6');
  }
  for (const [network, prefix] of IPV6[kind]) list.addSubnet(network, prefix, 'ipv6');
  return { kind, list };
});

/** IPv6 space that routes on the internet: global unicast, and the ranges that carry IPv4. */
const GLOBAL_IPV6 = new BlockList();
GLOBAL_IPV6.addSubnet('2000::', 3, 'ipv6');
GLOBAL_IPV6.addSubnet('::ffff:0:0', 96, 'ipv6');
GLOBAL_IPV6.addSubnet('64:ff9b::', 96, 'ipv6');

/**
 * What kind of non-public address `address` is, in words ("a loopback address (this
 * machine)"), or null when it is a public internet address. Not an IP address: "not an IP
 * address". Accepts IPv6 in brackets, as a URL's host has it.
 */
export function nonPublicAddressKind(address: string): string | null {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  const version = isIP(bare);
  if (version === 0) return 'not an IP address';
  const type = version === 4 ? 'ipv4' : 'ipv6';
  for (const { kind, list } of BLOCKS) {
    if (list.check(bare, type)) return KINDS[kind];
  }
  if (type === 'ipv6' && !GLOBAL_IPV6.check(bare, 'ipv6')) return KINDS.reserved;
  return null;
}

export const isPublicAddress = (address: string) => nonPublicAddressKind(address) === null;

/** Names that never reach the public internet, whatever DNS says of them. */
const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.lan'];

/**
 * Why a URL's host cannot be a webhook's, read from the host alone (no DNS), or null when it may
 * be: an IP address that is not public, this machine's name, a local network's name, or a name
 * of one label (which resolvers complete with the local network's domain).
 */
export function hostProblem(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (isIP(host.replace(/^\[(.*)\]$/, '$1'))) {
    const kind = nonPublicAddressKind(host);
    return kind ? `${host} is ${kind}` : null;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is this machine`;
  if (LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix)) || !host.includes('.')) {
    return `${host} is a local network name`;
  }
  return null;
}

/** A connection refused because its host resolved to an address that is not public. */
export class NonPublicAddressError extends Error {
  override name = 'NonPublicAddressError';
  readonly code = 'ENONPUBLIC';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly kind: string,
  ) {
    super(`${host} resolves to ${kind}`);
  }
}

/**
 * A `lookup` for `net`, `http` and `https` connections: resolves as usual, and refuses the
 * connection when any address the name resolves to is not public. It runs as the socket
 * connects, so the address checked is the address connected to: a name that pointed at a public
 * address when the webhook was saved, and points inside now (DNS rebinding), is refused.
 * (An IP address in the URL is never looked up: check it with `nonPublicAddressKind` first.)
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, []);
    for (const { address } of addresses) {
      const kind = nonPublicAddressKind(address);
      if (kind) return callback(new NonPublicAddressError(hostname, address, kind), []);
    }
    const [first] = addresses;
    if (!first) {
      const none: NodeJS.ErrnoException = new Error(`${hostname} has no address`);
      none.code = 'ENOTFOUND';
      return callback(none, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, first.address, first.family);
  });
};

/**
 * Every address `hostname` resolves to now, checked: the first that is not public, in words, or
 * null (also when the name does not resolve, or not within `timeoutMs`: delivery checks again).
 * The words name the kind of address, never the address: they are shown to whoever typed the
 * name, who should not learn the inside network's addresses from them.
 */
export async function resolvedAddressProblem(
  hostname: string,
  timeoutMs = 3000,
): Promise<string | null> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) return null;
  const addresses = await Promise.race([
    new Promise<LookupAddress[]>((resolve) => {
      dnsLookup(host, { all: true }, (error, found) => resolve(error ? [] : found));
    }),
    new Promise<LookupAddress[]>((resolve) => setTimeout(() => resolve([]), timeoutMs).unref()),
  ]);
  for (const { address } of addresses) {
    const kind = nonPublicAddressKind(address);
    if (kind) return `${host} resolves to ${kind}`;
  }
  return null;
}
