// Where a webhook may be delivered (issue 36 follow-up): an admin of any account names the URL, and the server
// posts to it and shows the answer's status and first bytes, so an address on the server's own network (its
// loopback, the cloud metadata service at 169.254.169.254, the database's private address) would let a tenant
// probe and call what only the server can reach. Those addresses are refused unless the operator opens them
// with FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow, for receivers on their own network.
import { BlockList, isIP } from 'node:net';

/** The setting that lets webhooks reach the server's own network, as its refusals name it. */
export const PRIVATE_NETWORKS_SETTING = 'FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow';

/** The ranges refused, each with the words a refusal uses for it. */
const RANGES: ReadonlyArray<readonly [kind: string, address: string, bits: number, family: 'ipv4' | 'ipv6']> =
  [
    ['an unspecified ("this network")', '0.0.0.0', 8, 'ipv4'],
    ['a private', '10.0.0.0', 8, 'ipv4'],
    ['a shared (carrier-grade NAT)', '100.64.0.0', 10, 'ipv4'],
    ['a loopback', '127.0.0.0', 8, 'ipv4'],
    ['a link-local', '169.254.0.0', 16, 'ipv4'],
    ['a private', '172.16.0.0', 12, 'ipv4'],
    ['a private', '192.168.0.0', 16, 'ipv4'],
    ['a multicast', '224.0.0.0', 4, 'ipv4'],
    ['a reserved', '240.0.0.0', 4, 'ipv4'],
    ['an unspecified', '::', 128, 'ipv6'],
    ['a loopback', '::1', 128, 'ipv6'],
    ['a private (unique local)', 'fc00::', 7, 'ipv6'],
    ['a link-local', 'fe80::', 10, 'ipv6'],
    ['a site-local', 'fec0::', 10, 'ipv6'],
    ['a multicast', 'ff00::', 8, 'ipv6'],
  ];

// One list per kind, so a refusal can say which kind of address it met. A BlockList also matches the
// IPv4-mapped IPv6 form (::ffff:127.0.0.1) of an IPv4 range.
const LISTS = RANGES.map(([kind, address, bits, family]) => {
  const list = new BlockList();
  list.addSubnet(address, bits, family);
  return { kind, list };
});

/** Prefixes whose last 32 bits are an IPv4 address reached through them: checked as that address. */
const EMBEDDING = (() => {
  const list = new BlockList();
  list.addSubnet('::', 96, 'ipv6'); // IPv4-compatible (deprecated), ::a.b.c.d
  list.addSubnet('64:ff9b::', 96, 'ipv6'); // NAT64's well-known prefix
  return list;
})();

/** The IPv4 address in the last 32 bits of an IPv6 one. */
const lastIpv4 = (address: string): string | null => {
  const parsed = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const groups = parsed.split(':');
  const [high = '', low = ''] = groups.slice(-2).map((group) => parseInt(group === '' ? '0' : group, 16));
  if (typeof high !== 'number' || typeof low !== 'number' || Number.isNaN(high) || Number.isNaN(low))
    return null;
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
};

/**
 * What kind of address `address` is when webhooks may not reach it ("a loopback address"), else null (a
 * public address, or not an address at all).
 */
export const refusedAddressKind = (address: string): string | null => {
  const family = isIP(address);
  if (family === 0) return null;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const found = LISTS.find(({ list }) => list.check(address, type));
  if (found !== undefined) return `${found.kind} address`;
  if (type === 'ipv6' && EMBEDDING.check(address, 'ipv6')) {
    const embedded = lastIpv4(address);
    const kind = embedded === null ? null : refusedAddressKind(embedded);
    if (kind !== null) return `${kind} (embedded in ${address})`;
  }
  return null;
};

/** A URL's host as an address when it is one (`[::1]` → `::1`), else null (a name). */
export const literalAddress = (hostname: string): string | null => {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? null : bare;
};

/** Why a webhook URL whose host is a literal refused address is refused, naming the setting; else null. */
export const literalAddressProblem = (url: URL): string | null => {
  const address = literalAddress(url.hostname);
  const kind = address === null ? null : refusedAddressKind(address);
  if (address === null || kind === null) return null;
  return `must not point to ${kind} (${address}): webhooks reach only public addresses unless the server is started with ${PRIVATE_NETWORKS_SETTING}`;
};
