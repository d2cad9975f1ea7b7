// One webhook POST (issue 36), only to addresses that were checked: the target's name is resolved here, every
// address it resolves to is checked (webhook-address.ts), and the request's `lookup` hands the connection only
// the addresses that passed, so a name that resolves to a public address for the check and to a private one
// for the connection (DNS rebinding) reaches nothing it should not. Redirects are never followed: a 3xx is the
// target's answer. node:http rather than fetch: fetch cannot be told which address to connect to without
// undici's Agent, which is not a dependency of the server.
import { lookup as resolveName } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { literalAddress, PRIVATE_NETWORKS_SETTING, refusedAddressKind } from './webhook-address.js';

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
}

/** A delivery refused before any connection: the target resolves only to addresses webhooks may not reach. */
export class RefusedTargetError extends Error {
  override name = 'RefusedTargetError';
}

/** Rejects when `signal` aborts (a resolver cannot be stopped, only no longer waited for). */
const aborted = (signal: AbortSignal): Promise<never> =>
  new Promise((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });

/** A resolved address of a target. */
interface Address {
  address: string;
  family: number;
}

/**
 * The addresses to connect to for `hostname`, in the resolver's order: those webhooks may reach (every one
 * with `privateNetworks`); throws a {@link RefusedTargetError} when there is none.
 */
const checkedAddresses = async (
  hostname: string,
  privateNetworks: boolean,
  signal: AbortSignal,
): Promise<Address[]> => {
  const literal = literalAddress(hostname);
  const resolved: Address[] =
    literal === null
      ? await Promise.race([resolveName(hostname, { all: true, verbatim: true }), aborted(signal)])
      : [{ address: literal, family: isIP(literal) }];
  const allowed = privateNetworks
    ? resolved
    : resolved.filter((candidate) => refusedAddressKind(candidate.address) === null);
  if (allowed.length > 0) return allowed;
  const first = resolved[0];
  if (first === undefined) throw new Error(`${hostname} resolves to no address`);
  const kind = refusedAddressKind(first.address) ?? 'a refused address';
  const what = literal === null ? `${hostname} resolves to ${first.address}` : first.address;
  throw new RefusedTargetError(
    `refused: ${what}, ${kind}, which webhooks may not reach unless the server is started with ${PRIVATE_NETWORKS_SETTING}`,
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
  const pinned = await checkedAddresses(target.hostname, options.privateNetworks, signal);
  const [first] = pinned;
  if (first === undefined) throw new Error(`${target.hostname} resolves to no address`);
  // The connection asks its lookup rather than the resolver, so it reaches only the addresses checked above:
  // all of them when it tries several (autoSelectFamily asks with `all`), else the first.
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all === true)
      (callback as unknown as (error: null, addresses: Address[]) => void)(null, pinned);
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
