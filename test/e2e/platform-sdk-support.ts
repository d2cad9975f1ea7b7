// The platform's own JS SDK (@flagship.io/js-sdk 5.2.0, a devDependency for tests only) pointed at our server
// as docs/http-api.md ("Using the platform's SDKs") says: its three host names go to the server and the paths
// stay as the SDK sends them. In Node that SDK sends every request with node-fetch over node:https, so the
// test stands in for DNS and a TLS proxy there: a request to one of those hosts is sent to the server over
// plain HTTP with its Host header and path unchanged; any other host fails without reaching the network.
// Every answer the SDK gets is recorded, with the body it sent.
import http from 'node:http';
import https from 'node:https';
import {
  DecisionMode,
  EventCategory,
  Flagship,
  HitType,
  LogLevel,
  type Visitor,
  type VisitorCacheDTO,
} from '@flagship.io/js-sdk';
import { murmur3 } from '../../src/engine/murmur3.js';

/** The hosts of @flagship.io/js-sdk 5.2.0 (its FlagshipConstant: decision, CDN and events). */
export const PLATFORM_HOSTS = ['decision.flagship.io', 'cdn.flagship.io', 'events.flagship.io'] as const;

/** One request of the SDK and the status it got. */
export interface SeenRequest {
  host: string;
  method: string;
  path: string;
  status: number;
  /** The body the SDK sent (JSON text), '' for none. */
  body: string;
  /** The request headers the SDK sent, names in lower case. */
  headers: Record<string, string>;
  /** The answer's body, once read ('' until then, and for none). */
  answer: string;
}

/** What the mapping recorded; `restore` puts node:https back. */
export interface HostMapping {
  seen: SeenRequest[];
  /** Requests to hosts other than the platform's three (none may happen). */
  unmapped: string[];
  restore(): void;
}

/** Sends the SDK's requests for the platform's hosts to `serverUrl` (http://127.0.0.1:PORT). */
export const mapPlatformHosts = (serverUrl: string): HostMapping => {
  const target = new URL(serverUrl);
  const seen: SeenRequest[] = [];
  const unmapped: string[] = [];
  const original = https.request;
  // No keep-alive: the process ends when the test does, with no socket left open.
  const agent = new http.Agent({ keepAlive: false });
  // node-fetch calls https.request with one options object (a parsed URL, method, headers and agent).
  const mapped = (first: unknown, ...rest: unknown[]): http.ClientRequest => {
    if (typeof first !== 'object' || first === null || first instanceof URL || rest.length > 0) {
      unmapped.push('an https request in another form than node-fetch sends');
      throw new Error('only the SDK (node-fetch) may send https requests in this test');
    }
    const options = first as https.RequestOptions;
    // node-fetch's headers: one value per name (Host aside), as arrays.
    const headers = (options.headers ?? {}) as http.OutgoingHttpHeaders;
    const host = options.hostname ?? '';
    if (!(PLATFORM_HOSTS as readonly string[]).includes(host)) {
      unmapped.push(`${options.method ?? 'GET'} https://${host}${options.path ?? ''}`);
      throw new Error(`${host} is not mapped to the test server`);
    }
    const method = options.method ?? 'GET';
    const path = options.path ?? '/';
    const chunks: Buffer[] = [];
    const request = http.request({
      method,
      path,
      protocol: 'http:',
      host: target.hostname,
      hostname: target.hostname,
      port: Number(target.port),
      agent,
      headers: { ...headers, host },
    });
    const write = request.write.bind(request) as (chunk: unknown, ...rest: unknown[]) => boolean;
    request.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) chunks.push(Buffer.from(chunk));
      return write(chunk, ...rest);
    }) as typeof request.write;
    request.on('response', (response) => {
      const entry: SeenRequest = {
        host,
        method,
        path,
        status: response.statusCode ?? 0,
        body: Buffer.concat(chunks).toString('utf8'),
        headers: Object.fromEntries(
          Object.entries(headers).map(([name, value]) => [
            name.toLowerCase(),
            Array.isArray(value) ? value.join(', ') : String(value),
          ]),
        ),
        answer: '',
      };
      seen.push(entry);
      // Read beside the SDK, which pipes the same stream in this tick.
      response.on('data', (chunk: Buffer) => (entry.answer += chunk.toString('utf8')));
    });
    return request;
  };
  https.request = mapped;
  return {
    seen,
    unmapped,
    restore: () => {
      https.request = original;
      agent.destroy();
    },
  };
};

/** The requests that got a 4xx answer, as `METHOD host path → status: body`, for assertion messages. */
export const clientErrors = (seen: readonly SeenRequest[]): string[] =>
  seen
    .filter((s) => s.status >= 400 && s.status < 500)
    .map((s) => `${s.method} ${s.host}${s.path} → ${s.status}: ${s.body.slice(0, 300)}`);

/** Items that a 200 answer rejected one by one (hits or activations), as `path: message`. */
export const rejectedItems = (seen: readonly SeenRequest[]): string[] =>
  seen
    .filter((s) => s.status === 200 && (s.path === '/' || s.path === '/v2/activate') && s.answer !== '')
    .flatMap((s) =>
      ((JSON.parse(s.answer) as { rejected?: Array<{ message: string }> }).rejected ?? []).map(
        (r) => `${s.host}${s.path}: ${r.message}`,
      ),
    );

/** How many activations the server acknowledged (2xx) to the SDK, over all its activation batches. */
export const acknowledgedActivations = (seen: readonly SeenRequest[]): number =>
  seen
    .filter((s) => s.path === '/v2/activate' && s.status >= 200 && s.status < 300)
    .reduce((sum, s) => sum + (JSON.parse(s.body) as { batch: unknown[] }).batch.length, 0);

/** The SDK's visitor cache, in memory (it needs one for continuity in bucketing mode). */
export class MemoryVisitorCache {
  readonly records = new Map<string, VisitorCacheDTO>();

  cacheVisitor(visitorId: string, data: VisitorCacheDTO): Promise<void> {
    this.records.set(visitorId, data);
    return Promise.resolve();
  }

  lookupVisitor(visitorId: string): Promise<VisitorCacheDTO> {
    // The interface says a record; the SDK treats anything falsy as none.
    return Promise.resolve(this.records.get(visitorId) as VisitorCacheDTO);
  }

  flushVisitor(visitorId: string): Promise<void> {
    this.records.delete(visitorId);
    return Promise.resolve();
  }
}

/** The flag reads of a test, and what the report must say of them (§14.1, §14.2), counted by hand. */
export interface ExposureLedger {
  /** Activations the SDK was asked to send (one per read). */
  readonly activations: number;
  /**
   * Reads `q` twice and `h` once, each sending an activation; records which vid saw which variation, and,
   * after a login, that `anonymousId` is the person `vid` (§14.2). Returns the values read.
   */
  read(visitor: Visitor, vid: string, anonymousId?: string): { q: number; h: number };
  /** Visits (distinct vids) and visitors (distinct persons) per variation of `variationIds`, in that order. */
  expected(
    flag: 'q' | 'h',
    variationIds: readonly string[],
  ): Array<{ id: string; visits: number; visitors: number }>;
}

/** A new, empty ledger. */
export const exposureLedger = (): ExposureLedger => {
  // flag → variation id → vids exposed to it
  const exposed = new Map<string, Map<string, Set<string>>>();
  const personOf = new Map<string, string>();
  let activations = 0;
  const record = (flag: string, variationId: string, vid: string): void => {
    let byVariation = exposed.get(flag);
    if (byVariation === undefined) exposed.set(flag, (byVariation = new Map<string, Set<string>>()));
    let vids = byVariation.get(variationId);
    if (vids === undefined) byVariation.set(variationId, (vids = new Set<string>()));
    vids.add(vid);
  };
  return {
    get activations() {
      return activations;
    },
    read(visitor, vid, anonymousId) {
      const q = visitor.getFlag('q');
      const h = visitor.getFlag('h');
      const values = { q: q.getValue(-1), h: h.getValue(-1) };
      q.getValue(-1); // read again: the platform's SDK sends another activation
      activations += 3;
      record('q', q.metadata.variationId, vid);
      record('h', h.metadata.variationId, vid);
      if (anonymousId !== undefined) personOf.set(anonymousId, vid);
      return values;
    },
    expected(flag, variationIds) {
      return variationIds.map((id) => {
        const vids = exposed.get(flag)?.get(id) ?? new Set<string>();
        const persons = new Set([...vids].map((vid) => personOf.get(vid) ?? vid));
        return { id, visits: vids.size, visitors: persons.size };
      });
    },
  };
};

/** Sends one hit of every type the SDK has (a page with a session number, and one with a relative path). */
export const sendEveryHit = (visitor: Visitor): Promise<void> =>
  visitor.sendHits([
    { type: HitType.PAGE, documentLocation: 'https://shop.example/checkout', sessionNumber: '3' },
    { type: HitType.PAGE, documentLocation: '/checkout' },
    { type: HitType.SCREEN, documentLocation: 'checkout' },
    {
      type: HitType.EVENT,
      category: EventCategory.ACTION_TRACKING,
      action: 'add_to_cart',
      label: 'button',
      value: 3,
    },
    {
      type: HitType.TRANSACTION,
      transactionId: 'T-1',
      affiliation: 'Purchase',
      totalRevenue: 20.5,
      shippingCosts: 2,
      taxes: 1,
      currency: 'EUR',
      couponCode: 'SALE',
      itemCount: 1,
      paymentMethod: 'card',
      shippingMethod: 'post',
    },
    {
      type: HitType.ITEM,
      transactionId: 'T-1',
      productName: 'Shoe',
      productSku: 'SKU-1',
      itemPrice: 20.5,
      itemQuantity: 1,
      itemCategory: 'shoes',
    },
  ]);

/**
 * A visitor id whose usage hit the SDK sends today: it sends one when MurmurHash3(visitorId + the local date
 * string) % 1000 ≤ 1 (its StrategyAbstract), the same hash as ours on ASCII (§8.1).
 */
export const usageSampledVisitorId = (): string => {
  const day = new Date().toDateString();
  for (let i = 0; i < 1_000_000; i++) {
    const id = `usage-${i}`;
    if (murmur3(id + day) % 1000 <= 1) return id;
  }
  throw new Error('no sampled visitor id in a million');
};

/**
 * Stops the SDK's timers through its public API (5.2.0 has no stop, and its close() does nothing in Node). A
 * start without API key sets the status to SDK_NOT_INITIALIZED, which stops the batching loop. The bucketing
 * poller stops only when a new start resets the mode's manager: a start in decision-API mode does (it fetches
 * the account settings once, and starts a batching loop again, which a last start without key stops).
 */
export const stopPlatformSdk = async (envId: string, mode: DecisionMode): Promise<void> => {
  const quiet = { logLevel: LogLevel.NONE };
  await Flagship.start(envId, '', quiet);
  if (mode === DecisionMode.DECISION_API) return;
  await Flagship.start(envId, 'stopping', { ...quiet, decisionMode: DecisionMode.DECISION_API });
  await Flagship.start(envId, '', quiet);
};
