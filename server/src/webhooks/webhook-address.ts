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
    ['an IETF protocol assignment', '192.0.0.0', 24, 'ipv4'],
    ['a benchmarking', '198.18.0.0', 15, 'ipv4'],
    ['a documentation', '192.0.2.0', 24, 'ipv4'],
    ['a documentation', '198.51.100.0', 24, 'ipv4'],
    ['a documentation', '203.0.113.0', 24, 'ipv4'],
    ['an unspecified', '::', 128, 'ipv6'],
    ['a loopback', '::1', 128, 'ipv6'],
    ['a private (unique local)', 'fc00::', 7, 'ipv6'],
    ['a link-local', 'fe80::', 10, 'ipv6'],
    ['a site-local', 'fec0::', 10, 'ipv6'],
    ['a multicast', 'ff00::', 8, 'ipv6'],
    ['a discard-only', '100::', 64, 'ipv6'],
    ['a documentation', '2001:db8::', 32, 'ipv6'],
    // The operator's own translator, so whatever it embeds is on the operator's side (RFC 8215).
    ['a local-use NAT64', '64:ff9b:1::', 48, 'ipv6'],
    // Teredo hides the client's IPv4 (inverted) and reaches it through a relay on the way: refused whole.
    ['a Teredo', '2001::', 32, 'ipv6'],
    // SIIT's IPv4-translated form (RFC 2765), never a destination on the Internet: refused whatever it embeds.
    ['an IPv4-translated', '::ffff:0:0:0', 96, 'ipv6'],
  ];

// One list per kind, so a refusal can say which kind of address it met. A BlockList also matches the
// IPv4-mapped IPv6 form (::ffff:127.0.0.1) of an IPv4 range.
const LISTS = RANGES.map(([kind, address, bits, family]) => {
  const list = new BlockList();
  list.addSubnet(address, bits, family);
  return { kind, list };
});

/** The 8 groups of an IPv6 address (`::` expanded, a dotted IPv4 tail read as two); null if unreadable. */
const ipv6Groups = (address: string): number[] | null => {
  let normalised: string;
  try {
    normalised = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head = '', tail] = normalised.split('::');
  const split = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const known = [...split(head), ...split(tail ?? '')];
  const groups = [...split(head), ...Array<string>(8 - known.length).fill('0'), ...split(tail ?? '')];
  const numbers = groups.map((group) => parseInt(group, 16));
  return numbers.length === 8 && numbers.every((group) => group >= 0 && group <= 0xffff) ? numbers : null;
};

/** The IPv4 address in groups `at` and `at + 1` of an IPv6 address. */
const ipv4At = (groups: readonly number[], at: number): string | null => {
  const [high, low] = [groups[at], groups[at + 1]];
  if (high === undefined || low === undefined) return null;
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
};

/** A prefix whose addresses carry an IPv4 address they reach, and the group where it starts. */
const subnet = (address: string, bits: number): BlockList => {
  const list = new BlockList();
  list.addSubnet(address, bits, 'ipv6');
  return list;
};
const EMBEDDING: ReadonlyArray<{ list: BlockList; at: number }> = [
  { list: subnet('::', 96), at: 6 }, // IPv4-compatible (deprecated), ::a.b.c.d
  { list: subnet('64:ff9b::', 96), at: 6 }, // NAT64's well-known prefix
  // 6to4 (RFC 3056, deprecated by RFC 7526): 2002:AABB:CCDD::/48 is the site behind the IPv4 AA.BB.CC.DD, and
  // packets to it are tunnelled to that IPv4 (by a relay, or by the server itself when it has a 6to4
  // interface). Checked as that IPv4: a public one reaches what a webhook could reach directly, so it passes,
  // as a public address embedded in NAT64 does; 2002:a9fe:a9fe:: (169.254.169.254) is refused.
  { list: subnet('2002::', 16), at: 1 },
];

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
  if (type === 'ipv4') return null;
  const embedding = EMBEDDING.find(({ list }) => list.check(address, 'ipv6'));
  const groups = embedding === undefined ? null : ipv6Groups(address);
  const embedded = embedding === undefined || groups === null ? null : ipv4At(groups, embedding.at);
  const kind = embedded === null ? null : refusedAddressKind(embedded);
  return kind === null ? null : `${kind} (embedded in ${address})`;
};

/** A URL's host as an address when it is one (`[::1]` → `::1`), else null (a name). */
export const literalAddress = (hostname: string): string | null => {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? null : bare;
};

/** `localhost` or a name under it, written any way a URL's host can be (a trailing dot, any case). */
export const isLocalhost = (name: string): boolean => {
  const bare = name.toLowerCase().replace(/\.$/, '');
  return bare === 'localhost' || bare.endsWith('.localhost');
};

/**
 * Why a webhook URL is refused before any name is resolved, naming the setting; else null: a literal refused
 * address, or a `localhost` name, which is loopback by definition (RFC 6761) whatever DNS says.
 */
export const literalAddressProblem = (url: URL): string | null => {
  const unless = `webhooks reach only public addresses unless the server is started with ${PRIVATE_NETWORKS_SETTING}`;
  if (isLocalhost(url.hostname)) return `must not point to a loopback address (${url.hostname}): ${unless}`;
  const address = literalAddress(url.hostname);
  const kind = address === null ? null : refusedAddressKind(address);
  if (address === null || kind === null) return null;
  return `must not point to ${kind} (${address}): ${unless}`;
};
