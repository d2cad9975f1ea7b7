// One webhook POST (issue 36), only to addresses that were checked: the target's name is resolved here, every
// address it resolves to is checked (webhook-address.ts), and the request's `lookup` hands the connection only
// the addresses that passed, so a name that resolves to a public address for the check and to a private one
// for the connection (DNS rebinding) reaches nothing it should not. A refusal says what the name resolved to
// only in the server's log: the delivery log is read by the account's admins, who would otherwise learn the
// addresses of the server's internal names by aiming webhooks at them. Redirects are never followed: a 3xx is
// the target's answer. node:http rather than fetch: fetch cannot be told which address to connect to without
// undici's Agent, which is not a dependency of the server.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { literalAddress, PRIVATE_NETWORKS_SETTING, refusedAddressKind } from './webhook-address.js';
import { resolveTargetName, type ResolvedAddress } from './webhook-resolver.js';

/** A target's answer: its status, the start of its body and its `Retry-After` header. */
export interface WebhookAnswer {
  status: number;
  answer: string;
  retryAfter: string | null;
}

/** How a webhook is posted. */
export interface WebhookPostOptions {
  headers: Record<string, string>;
  body: string;
  /** How long the target has to answer, body start included. */
  timeoutMs: number;
  /** How many characters of the answer's body are read (the rest is not). */
  answerChars: number;
  /** FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow: any address may be reached. */
  privateNetworks: boolean;
  /** The DNS servers that resolve target names (`host` or `host:port`); by default the system's. */
  dnsServers?: readonly string[];
}

/**
 * A delivery refused before any connection: the target resolves only to addresses webhooks may not reach. Its
 * message is what the account's admins may read; `resolved` is for the server's log only.
 */
export class RefusedTargetError extends Error {
  override name = 'RefusedTargetError';

  constructor(
    message: string,
    /** What the target's name resolved to and why each was refused, or '' for a literal address. */
    readonly resolved: string,
  ) {
    super(message);
  }
}

/**
 * The addresses to connect to for `hostname`, in the resolver's order: those webhooks may reach (every one
 * with `privateNetworks`); throws a {@link RefusedTargetError} when there is none.
 */
const checkedAddresses = async (
  hostname: string,
  options: WebhookPostOptions,
  signal: AbortSignal,
): Promise<ResolvedAddress[]> => {
  const literal = literalAddress(hostname);
  const resolved: ResolvedAddress[] =
    literal === null
      ? await resolveTargetName(hostname, {
          timeoutMs: options.timeoutMs,
          system: options.privateNetworks,
          signal,
          ...(options.dnsServers === undefined ? {} : { dnsServers: options.dnsServers }),
        })
      : [{ address: literal, family: isIP(literal) === 6 ? 6 : 4 }];
  const allowed = options.privateNetworks
    ? resolved
    : resolved.filter((candidate) => refusedAddressKind(candidate.address) === null);
  if (allowed.length > 0) return allowed;
  const first = resolved[0];
  if (first === undefined) throw new Error(`${hostname} resolves to no address`);
  const unless = `which webhooks may not reach unless the server is started with ${PRIVATE_NETWORKS_SETTING}`;
  // The admin typed a literal address, so naming it and its kind tells them nothing new; a name's addresses
  // are the server's DNS answers, and stay in its log.
  if (literal !== null)
    throw new RefusedTargetError(
      `refused: ${literal}, ${refusedAddressKind(literal) ?? 'a refused address'}, ${unless}`,
      '',
    );
  throw new RefusedTargetError(
    `refused: ${hostname} resolves only to addresses ${unless}`,
    `${hostname} resolved to ${resolved
      .map(({ address }) => `${address} (${refusedAddressKind(address) ?? 'a refused address'})`)
      .join(', ')}`,
  );
};

/** Reads at most `max` characters of `response`'s body, then drops the rest. */
const answerStart = (response: IncomingMessage, max: number): Promise<string> =>
  new Promise((resolve, reject) => {
    const decoder = new TextDecoder();
    let text = '';
    const done = (): void => {
      response.destroy();
      resolve(text.slice(0, max));
    };
    response.on('data', (chunk: Buffer) => {
      text += decoder.decode(chunk, { stream: true });
      if (text.length >= max) done();
    });
    response.on('end', done);
    response.on('error', reject);
  });

/** Sends the request to the checked addresses of `target`; `signal` cuts it off wherever it is. */
const exchange = async (
  target: URL,
  options: WebhookPostOptions,
  signal: AbortSignal,
): Promise<WebhookAnswer> => {
  const pinned = await checkedAddresses(target.hostname, options, signal);
  const [first] = pinned;
  if (first === undefined) throw new Error(`${target.hostname} resolves to no address`);
  // The connection asks its lookup rather than the resolver, so it reaches only the addresses checked above:
  // all of them when it tries several (autoSelectFamily asks with `all`), else the first.
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all === true)
      (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, pinned);
    else callback(null, first.address, first.family);
  };
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<WebhookAnswer>((resolve, reject) => {
    const request = send(target, {
      method: 'POST',
      headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
      lookup,
      // A connection of its own: a pooled one could have been opened to another address, by another lookup.
      agent: false,
      signal,
    });
    request.on('error', reject);
    request.on('response', (response) => {
      answerStart(response, options.answerChars).then(
        (answer) =>
          resolve({
            status: response.statusCode ?? 0,
            answer,
            retryAfter:
              typeof response.headers['retry-after'] === 'string' ? response.headers['retry-after'] : null,
          }),
        reject,
      );
    });
    request.end(options.body);
  });
};

/**
 * Posts `options.body` to `url` at an address its host was checked to be, within `options.timeoutMs` from
 * resolving the name to reading the answer's start (a target that trickles its answer is cut off too);
 * rejects with a {@link RefusedTargetError} when the target may not be reached, or with the network's error.
 */
export const postWebhook = async (url: string, options: WebhookPostOptions): Promise<WebhookAnswer> => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    return await exchange(new URL(url), options, controller.signal);
  } catch (error) {
    if (controller.signal.aborted) throw new Error(`no answer within ${options.timeoutMs} ms`);
    throw error;
  } finally {
    clearTimeout(timer);
  }
};
