// One webhook POST (issue 36), to exactly the address that was checked: the target's name is resolved here,
// every address it resolves to is checked (webhook-address.ts), and the connection is made to the chosen one
// through the request's `lookup`, so a name that resolves to a public address for the check and to a private
// one for the connection (DNS rebinding) reaches nothing it should not. Redirects are never followed: a 3xx is
// the target's answer. node:http rather than fetch: fetch cannot be told which address to connect to without
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

/** A resolved address of a target. */
interface Address {
  address: string;
  family: number;
}

/**
 * The addresses to connect to for `hostname`, in the resolver's order: those webhooks may reach (every one
 * with `privateNetworks`); throws a {@link RefusedTargetError} when there is none.
 */
const checkedAddresses = async (hostname: string, privateNetworks: boolean): Promise<Address[]> => {
  const literal = literalAddress(hostname);
  const resolved: Address[] =
    literal === null
      ? await resolveName(hostname, { all: true, verbatim: true })
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

/** The network's error as the delivery log says it: a timeout in words. */
const said = (error: Error, timeoutMs: number): Error =>
  error.name === 'AbortError' || error.name === 'TimeoutError'
    ? new Error(`no answer within ${timeoutMs} ms`)
    : error;

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

/**
 * Posts `options.body` to `url` at the address its host was checked to be; rejects with a
 * {@link RefusedTargetError} when the target may not be reached, or with the network's error.
 */
export const postWebhook = async (url: string, options: WebhookPostOptions): Promise<WebhookAnswer> => {
  const target = new URL(url);
  const pinned = await checkedAddresses(target.hostname, options.privateNetworks);
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
      // The whole exchange, not each socket read: a target that trickles its answer is cut off too.
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    request.on('error', (error) => reject(said(error, options.timeoutMs)));
    request.on('response', (response) => {
      answerStart(response, options.answerChars).then(
        (answer) =>
          resolve({
            status: response.statusCode ?? 0,
            answer,
            retryAfter:
              typeof response.headers['retry-after'] === 'string' ? response.headers['retry-after'] : null,
          }),
        (error: unknown) =>
          reject(error instanceof Error ? said(error, options.timeoutMs) : new Error(String(error))),
      );
    });
    request.end(options.body);
  });
};
