// A small HTTP server on 127.0.0.1 that speaks PROTOCOL.md §3-§6 and §17's stream well enough to test the SDK against a real
// socket before the project's server exists. Tests script its answers and read back what it received.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BucketingFile, Decision } from '../../src/protocol/index.js';

/** One request the double received. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: unknown;
  /** The body's size in bytes, as received. */
  bytes: number;
  at: number;
}

/** A scripted answer: status, JSON body and headers; `delayMs` holds the answer back. */
export interface ScriptedAnswer {
  status: number;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** What the double answers; each is consulted per request, so tests can change it between calls. */
export interface DoubleScript {
  envId: string;
  apiKey: string;
  /** The decision for a request body (default: no campaigns). */
  decide: (body: {
    visitorId: string;
    context: Record<string, unknown>;
    anonymousId?: string | null;
  }) => Decision;
  /** Overrides the next answers of a route, in order ("decision", "activate", "events", "bucketing", "stream"). */
  queued: Record<string, ScriptedAnswer[]>;
  bucketing: BucketingFile | null;
  bucketingEtag: string;
}

/**
 * A decide function from a table, visitor id → decision, `*` for any other visitor (default: no campaigns).
 * Tests that script the double from a browser use it: a function cannot cross the wire, a table can.
 */
export const decisionTable =
  (decisions: Record<string, Decision>): DoubleScript['decide'] =>
  (body) =>
    decisions[body.visitorId] ?? decisions['*'] ?? { visitorId: body.visitorId, campaigns: [] };

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers':
    'Content-Type, X-Api-Key, X-Sdk-Client, X-Sdk-Version, If-None-Match, If-Modified-Since, Last-Event-ID',
  'access-control-max-age': '7200',
  'access-control-expose-headers': 'ETag, Last-Modified, Retry-After',
};

/**
 * The live-update stream route `GET /v1/:envId/stream` (PROTOCOL.md §17), scripted: refusals go through
 * `script.queued.stream` (a 503 with `Retry-After`, a 404), each connection's `Last-Event-ID` is in its
 * recorded request's headers.
 */
export interface DoubleStreams {
  /** Streams open now. */
  open(): number;
  /** Streams opened so far (refusals not counted). */
  opened(): number;
  /** Sends one `change` event (`id: revision`) to every open stream. */
  push(revision: number, etag?: string): void;
  /** Writes raw text to every open stream (a ping comment, a partial event). */
  write(text: string): void;
  /** Ends every open stream cleanly, as a server shutting down does. */
  end(): void;
}

/** A running double. */
export interface ProtocolDouble {
  url: string;
  script: DoubleScript;
  requests: RecordedRequest[];
  streams: DoubleStreams;
  /** Requests to one route kind: "decision", "activate", "events", "bucketing", "usage". */
  requestsTo(kind: string): RecordedRequest[];
  close(): Promise<void>;
}

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const routeKind = (method: string, path: string): string => {
  if (/^\/v2\/[^/]+\/campaigns\/?$/.test(path)) return 'decision';
  if (path === '/v2/activate') return 'activate';
  if (path === '/events/analytics') return 'usage';
  if (path === '/events') return 'events';
  if (/^\/cdn\/[^/]+\/bucketing\.json$/.test(path)) return 'bucketing';
  if (/^\/v1\/[^/]+\/stream$/.test(path)) return 'stream';
  return `${method} ${path}`;
};

/** Starts a double on 127.0.0.1 with a free port. */
export const startProtocolDouble = async (partial: Partial<DoubleScript> = {}): Promise<ProtocolDouble> => {
  const script: DoubleScript = {
    envId: 'env1',
    apiKey: 'key1',
    decide: (body) => ({ visitorId: body.visitorId, campaigns: [] }),
    queued: {},
    bucketing: null,
    bucketingEtag: '"b1"',
    ...partial,
  };
  const requests: RecordedRequest[] = [];
  const openStreams = new Set<ServerResponse>();
  let opened = 0;

  const send = (res: ServerResponse, answer: ScriptedAnswer): void => {
    const headers: Record<string, string> = { ...CORS, ...answer.headers };
    let payload: string | undefined = answer.rawBody;
    if (payload === undefined && answer.body !== undefined) {
      payload = JSON.stringify(answer.body);
      headers['content-type'] ??= 'application/json; charset=utf-8';
    }
    const write = () => {
      res.writeHead(answer.status, headers);
      res.end(payload);
    };
    if (answer.delayMs) setTimeout(write, answer.delayMs);
    else write();
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const method = req.method ?? 'GET';
      if (method === 'OPTIONS') return send(res, { status: 204 });
      const text = await readBody(req);
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        /* kept as text: the test sees what was sent */
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      requests.push({
        method,
        path: url.pathname,
        query: url.search,
        headers,
        body,
        bytes: Buffer.byteLength(text),
        at: Date.now(),
      });

      const kind = routeKind(method, url.pathname);
      const queued = script.queued[kind]?.shift();
      if (queued) return send(res, queued);

      switch (kind) {
        case 'decision': {
          if (!url.pathname.startsWith(`/v2/${script.envId}/`))
            return send(res, {
              status: 404,
              body: { message: 'unknown environment', code: 'unknown_environment' },
            });
          if (!headers['x-api-key'])
            return send(res, {
              status: 401,
              body: { message: 'missing x-api-key', code: 'missing_api_key' },
            });
          if (headers['x-api-key'] !== script.apiKey)
            return send(res, { status: 403, body: { message: 'wrong x-api-key', code: 'invalid_api_key' } });
          return send(res, {
            status: 200,
            body: script.decide(body as Parameters<DoubleScript['decide']>[0]),
          });
        }
        case 'activate':
          return send(res, { status: 204 });
        case 'events': {
          const n = Array.isArray((body as { h?: unknown[] } | undefined)?.h)
            ? (body as { h: unknown[] }).h.length
            : 1;
          return send(res, { status: 200, body: { accepted: n, duplicates: 0, rejected: [] } });
        }
        case 'usage':
          return send(res, { status: 200, body: {} });
        case 'bucketing': {
          if (!script.bucketing)
            return send(res, { status: 404, body: { message: 'no file', code: 'not_found' } });
          if (headers['if-none-match'] === script.bucketingEtag)
            return send(res, { status: 304, headers: { etag: script.bucketingEtag } });
          return send(res, { status: 200, body: script.bucketing, headers: { etag: script.bucketingEtag } });
        }
        case 'stream': {
          if (url.pathname !== `/v1/${script.envId}/stream`)
            return send(res, { status: 404, body: { message: 'unknown environment', code: 'not_found' } });
          res.writeHead(200, { ...CORS, 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
          res.flushHeaders();
          opened++;
          openStreams.add(res);
          res.once('close', () => openStreams.delete(res));
          return;
        }
        default:
          return send(res, { status: 404, body: { message: `no route ${kind}`, code: 'not_found' } });
      }
    })();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    script,
    requests,
    requestsTo: (kind) => requests.filter((r) => routeKind(r.method, r.path) === kind),
    streams: {
      open: () => openStreams.size,
      opened: () => opened,
      push(revision, etag = script.bucketingEtag) {
        const data = { type: 'refetchEvaluation', etag, lastModified: new Date().toUTCString() };
        for (const res of openStreams)
          res.write(`id: ${revision}\nevent: change\ndata: ${JSON.stringify(data)}\n\n`);
      },
      write(text) {
        for (const res of openStreams) res.write(text);
      },
      end() {
        for (const res of openStreams) res.end();
      },
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
