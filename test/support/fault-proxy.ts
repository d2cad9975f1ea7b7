// A proxy on 127.0.0.1 in front of the project's server that fails at random, the way networks, overloaded
// servers and middleboxes do: 5xx, 429 with Retry-After, connections reset before or after the server got the
// request, answers held past the client's timeout, answers cut short, malformed 200 bodies. Faults come from a
// seeded generator, so a failing run replays with the same seed. `recover()` turns them off.
//
// The faults that forward first (reset after, held, cut short, malformed after) are the double-count risk:
// the server stored the batch while the client saw a failure and sends it again; the hit ids (§5.4) must
// make the second arrival a duplicate.
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seededRandom } from './seeded-random.js';

/** What the proxy does with one request. */
export type FaultMode =
  | 'pass'
  | 'error-5xx'
  | 'rate-429'
  | 'reset-before'
  | 'reset-after'
  | 'held'
  | 'cut-short'
  | 'malformed-before'
  | 'malformed-after';

/** Every fault, in the order the generator picks from. */
export const FAULTS: readonly FaultMode[] = [
  'error-5xx',
  'rate-429',
  'reset-before',
  'reset-after',
  'held',
  'cut-short',
  'malformed-before',
  'malformed-after',
];

/** Options of {@link startFaultProxy}. */
export interface FaultProxyOptions {
  /** The server's origin, e.g. `http://127.0.0.1:4000`. */
  target: string;
  /** Seed of the fault generator. */
  seed: number;
  /** Share of the matching requests that get a fault, 0 to 1. */
  faultRate: number;
  /** How long a `held` answer waits: choose it longer than the client's timeout. */
  holdMs: number;
  /** `Retry-After` of the 429s, in seconds; default 1. */
  retryAfterSeconds?: number;
  /** Which requests may fail; default every POST (preflights and downloads pass). */
  matches?: (method: string, path: string) => boolean;
}

/** A running proxy. */
export interface FaultProxy {
  readonly url: string;
  /** Requests per mode, pass included. */
  readonly modes: Record<FaultMode, number>;
  /** Requests forwarded to the server (they reached it, duplicates included). */
  readonly forwarded: () => number;
  /** Turns the faults off: every request passes from now on. */
  recover(): void;
  /** Resolves when no forwarded request waits for the server. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** Answers made by the proxy itself carry CORS headers, or a page could not read them (PROTOCOL.md §2.3). */
const cors = (req: IncomingMessage): Record<string, string> => ({
  'access-control-allow-origin': req.headers.origin ?? '*',
  'access-control-expose-headers': 'Retry-After',
});

const MALFORMED = ['<html><body>Gateway login</body></html>', '{"accepted":', 'null', '[]', 'OK'];

/** Starts the proxy on 127.0.0.1:0. */
export const startFaultProxy = async (options: FaultProxyOptions): Promise<FaultProxy> => {
  const random = seededRandom(options.seed);
  const matches = options.matches ?? ((method: string) => method === 'POST');
  const modes = Object.fromEntries(['pass', ...FAULTS].map((m) => [m, 0])) as Record<FaultMode, number>;
  const target = new URL(options.target);
  const pending = new Set<Promise<unknown>>();
  let recovered = false;
  let forwarded = 0;

  /** Sends the request on to the server; resolves with its answer, read in full. */
  const upstream = (req: IncomingMessage, body: Buffer) => {
    forwarded += 1;
    const answer = new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>(
      (resolve, reject) => {
        const out = forward(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: target.host },
          },
          (res) => {
            readBody(res).then(
              (bytes) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: bytes }),
              reject,
            );
          },
        );
        out.on('error', reject);
        out.end(body);
      },
    );
    pending.add(answer);
    void answer.catch(() => undefined).finally(() => pending.delete(answer));
    return answer;
  };

  // Whether a request fails is random; which fault it gets goes round the list from a random start, so a
  // run of a few dozen requests meets every kind.
  let next = Math.floor(random() * FAULTS.length);
  const pick = (method: string, path: string): FaultMode => {
    if (recovered || !matches(method, path) || random() >= options.faultRate) return 'pass';
    return FAULTS[next++ % FAULTS.length] ?? 'pass';
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const mode = pick(req.method ?? 'GET', (req.url ?? '/').split('?')[0] ?? '/');
    modes[mode] += 1;
    const reply = (status: number, headers: Record<string, string>, text: string): void => {
      res.writeHead(status, { ...cors(req), ...headers });
      res.end(text);
    };
    switch (mode) {
      case 'error-5xx':
        return reply(500 + (random() < 0.5 ? 0 : 3), {}, '{"message":"injected failure"}');
      case 'rate-429':
        return reply(
          429,
          { 'retry-after': String(options.retryAfterSeconds ?? 1) },
          '{"message":"injected rate limit"}',
        );
      case 'reset-before':
        req.socket.destroy();
        return;
      case 'malformed-before':
        return reply(200, {}, MALFORMED[Math.floor(random() * MALFORMED.length)] ?? '');
      default:
    }
    const answer = await upstream(req, body).catch((error: unknown) => ({
      status: 502,
      headers: {},
      body: Buffer.from(String(error)),
    }));
    if (mode === 'reset-after') return void req.socket.destroy();
    if (mode === 'held') await new Promise((resolve) => setTimeout(resolve, options.holdMs));
    if (res.destroyed || req.socket.destroyed) return; // the client gave up waiting (its timeout)
    if (mode === 'malformed-after')
      return reply(200, {}, MALFORMED[Math.floor(random() * MALFORMED.length)] ?? '');
    const headers = { ...answer.headers, 'content-length': String(answer.body.length) };
    delete headers['transfer-encoding'];
    res.writeHead(answer.status, headers);
    if (mode === 'cut-short') {
      // The head promises the whole body; half of it arrives, then the connection ends.
      res.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)));
      setTimeout(() => req.socket.destroy(), 5);
      return;
    }
    res.end(answer.body);
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => req.socket.destroy());
  });
  // Keep-alive would let one reset connection take queued requests with it: each request its own connection.
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    modes,
    forwarded: () => forwarded,
    recover() {
      recovered = true;
    },
    async idle() {
      for (let i = 0; i < 1_000 && pending.size > 0; i += 1) await Promise.allSettled([...pending]);
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
};
