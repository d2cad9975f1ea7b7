// What a webhook target's name resolves to, asked of DNS with c-ares (node:dns Resolver) rather than the
// system's getaddrinfo (dns.lookup): the name is a tenant's, and a slow authoritative server for it would hold
// one of libuv's four thread-pool threads (shared with file and crypto work) for as long as getaddrinfo waits,
// which cannot be cut short. The Resolver's queries run on the event loop, are bounded by `timeout` and
// `tries`, and are cancelled when the delivery gives up.
//
// DNS is not all getaddrinfo knows: `localhost` and every `*.localhost` name are loopback by definition
// (RFC 6761) and are answered here without asking anything, so they are still checked and refused. Names that
// only /etc/hosts, a resolv.conf search domain (Kubernetes' short service names) or mDNS knows resolve to no
// address: all of them are the server's own network, which webhooks may not reach anyway. When the operator
// allows it (FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow), those names are exactly the receivers the setting is
// for, and the tenants are the operator's own teams, so the system's resolver answers then, as it always did.
import { lookup, Resolver } from 'node:dns/promises';
import { isLocalhost } from './webhook-address.js';

/** One address a target's name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** How a target's name is resolved. */
export interface ResolveOptions {
  /** How long the whole resolution may take: each family's query is tried twice within it. */
  timeoutMs: number;
  /** The DNS servers to ask (`host` or `host:port`); by default the system's (/etc/resolv.conf). */
  dnsServers?: readonly string[];
  /** Ask the system's resolver (getaddrinfo) instead, unless `dnsServers` are given: for private networks. */
  system?: boolean;
  /** Cancels the queries in flight. */
  signal: AbortSignal;
}

/** What RFC 6761 says `localhost` names resolve to. */
const LOOPBACK: readonly ResolvedAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/** Rejects when `signal` aborts: getaddrinfo cannot be stopped, only no longer waited for. */
const aborted = (signal: AbortSignal): Promise<never> =>
  new Promise((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });

/** What the system's resolver answers for `hostname`, in its order. */
const systemAnswer = async (hostname: string, signal: AbortSignal): Promise<ResolvedAddress[]> => {
  const found = await Promise.race([lookup(hostname, { all: true, verbatim: true }), aborted(signal)]);
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/** The answers that mean "no address of this family", not a failure to find out. */
const NO_ADDRESS = new Set(['ENODATA', 'ENOTFOUND']);

const codeOf = (reason: unknown): string =>
  typeof reason === 'object' && reason !== null && 'code' in reason ? String(reason.code) : 'an error';

/**
 * The IPv4 then IPv6 addresses `hostname` resolves to (the system resolver's, in its order, with `system`);
 * rejects when it has none, when DNS does not answer within `timeoutMs`, or when `signal` aborts first.
 */
export const resolveTargetName = async (
  hostname: string,
  options: ResolveOptions,
): Promise<ResolvedAddress[]> => {
  if (options.signal.aborted) throw new Error('aborted');
  if (options.system === true && options.dnsServers === undefined)
    return systemAnswer(hostname, options.signal);
  if (isLocalhost(hostname)) return [...LOOPBACK];
  // Two tries, the second waiting twice as long as the first (c-ares doubles it), fill the time given.
  const resolver = new Resolver({ timeout: Math.max(1, Math.floor(options.timeoutMs / 3)), tries: 2 });
  if (options.dnsServers !== undefined) resolver.setServers([...options.dnsServers]);
  const cancel = (): void => resolver.cancel();
  options.signal.addEventListener('abort', cancel, { once: true });
  try {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const found: ResolvedAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
    if (found.length > 0) return found;
    const failure = [v4, v6]
      .map((result) => (result.status === 'rejected' ? codeOf(result.reason) : null))
      .find((code) => code !== null && !NO_ADDRESS.has(code));
    throw new Error(
      failure === undefined
        ? `${hostname} resolves to no address`
        : `resolving ${hostname} failed (${failure})`,
    );
  } finally {
    options.signal.removeEventListener('abort', cancel);
  }
};
