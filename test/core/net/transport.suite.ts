// The transport suite, run once per implementation of `#transport` (fetch-transport.test.ts and
// node-transport.test.ts): what the SDK's requests rely on, against local servers on 127.0.0.1. Waits are the
// caller's (the retry policy is computed, never slept); timeouts are the caller's timer aborting the signal.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { fetchError } from '../../../src/core/net/request-failure.js';
import { backoffDelay, parseRetryAfter } from '../../../src/core/net/retry.js';
import type {
  OpenStream,
  StreamHead,
  Transport,
  TransportResponse,
} from '../../../src/core/net/transport.js';
import { until } from '../../support/until.js';
import { makeCertificate, startTestServer, type Certificate, type TestServer } from './transport-server.js';

/** Which implementation runs: the TLS child process imports it by this name (tls-child.ts). */
export type TransportName = 'fetch' | 'node';

const json = { 'content-type': 'application/json' };

/** A request's rejection, as the caller sees it. */
const rejection = async (promise: Promise<unknown>): Promise<Error> => {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Error, String(error));
    return error;
  }
  return assert.fail('expected a rejection');
};

/** Defines the suite for `send` and `openStream`, the implementation called `name`. */
export const transportSuite = (name: TransportName, send: Transport, openStream: OpenStream): void => {
  void describe(`#transport (${name})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(() => server.close());

    const get = (path: string, signal = new AbortController().signal): Promise<TransportResponse> =>
      send({ url: server.url + path, signal });
    const post = (path: string, body: string, signal = new AbortController().signal) =>
      send({ method: 'POST', url: server.url + path, headers: { ...json, 'x-api-key': 'k1' }, body, signal });

    void it('sends method, headers and a UTF-8 body; answers status, headers and text', async () => {
      server.routes.set('/echo', (req, res, body) => {
        res.setHeader('x-multi', ['a', 'b']);
        res.writeHead(201, { ...json, etag: '"e1"', 'last-modified': 'Sat, 28 Nov 2026 10:00:00 GMT' });
        res.end(`\uFEFF${JSON.stringify({ body, method: req.method })}`);
      });
      const body = JSON.stringify({ name: 'café €' });
      const res = await post('/echo?x=1', body);
      assert.equal(res.status, 201);
      assert.equal(res.ok, true);
      // The byte order mark is left out, as fetch's text() does.
      assert.deepEqual(JSON.parse(res.body), { body, method: 'POST' });
      assert.equal(res.headers.get('Content-Type'), 'application/json');
      assert.equal(res.headers.get('etag'), '"e1"');
      assert.equal(res.headers.get('last-modified'), 'Sat, 28 Nov 2026 10:00:00 GMT');
      assert.equal(res.headers.get('x-multi'), 'a, b');
      assert.equal(res.headers.get('retry-after'), null);
      const received = server.received.at(-1);
      assert.ok(received);
      assert.equal(received.headers['content-length'], String(Buffer.byteLength(body)));
      assert.equal(received.headers['x-api-key'], 'k1');
      assert.match(String(received.headers['accept-encoding']), /gzip/);
    });

    void it('a non-2xx answer resolves, with its body', async () => {
      server.routes.set('/gone', (_req, res) => res.writeHead(410, json).end('{"message":"gone"}'));
      const res = await get('/gone');
      assert.deepEqual([res.status, res.ok, res.body], [410, false, '{"message":"gone"}']);
    });

    void it('decodes gzip, deflate (zlib and raw) and br bodies; an empty 204 needs no decoding', async () => {
      const text = JSON.stringify({ campaigns: Array.from({ length: 50 }, (_, i) => `c${i}`) });
      const encoded: Record<string, Buffer> = {
        gzip: gzipSync(text),
        deflate: deflateSync(text),
        'deflate-raw': deflateRawSync(text),
        br: brotliCompressSync(text),
      };
      for (const [coding, bytes] of Object.entries(encoded)) {
        server.routes.set(`/${coding}`, (_req, res) =>
          res.writeHead(200, { ...json, 'content-encoding': coding.replace('-raw', '') }).end(bytes),
        );
        const res = await get(`/${coding}`);
        assert.equal(res.body, text, coding);
      }
      server.routes.set('/empty', (_req, res) => res.writeHead(204, { 'content-encoding': 'gzip' }).end());
      assert.deepEqual([(await get('/empty')).status, (await get('/empty')).body], [204, '']);
    });

    void it('follows redirects: 301/302/303 turn a POST into a GET without body, 307/308 keep it', async () => {
      server.routes.set('/target', (req, res, body) =>
        res
          .writeHead(200, json)
          .end(JSON.stringify({ method: req.method, body, type: req.headers['content-type'] })),
      );
      for (const status of [301, 302, 303, 307, 308]) {
        // A relative Location, resolved against the request's URL.
        server.routes.set(`/r${status}`, (_req, res) =>
          res.writeHead(status, { location: 'target?q=1' }).end(),
        );
        const res = await post(`/r${status}`, '{"a":1}');
        const kept = status === 307 || status === 308;
        assert.equal(res.status, 200, String(status));
        assert.deepEqual(
          JSON.parse(res.body),
          kept ? { method: 'POST', body: '{"a":1}', type: 'application/json' } : { method: 'GET', body: '' },
          String(status),
        );
      }
      server.routes.set('/chain', (_req, res) =>
        res.writeHead(302, { location: `${server.url}/r308` }).end(),
      );
      assert.deepEqual(JSON.parse((await get('/chain')).body), { method: 'GET', body: '' });
    });

    void it('gives up on a redirect loop, as fetch does (20 redirects)', async () => {
      server.routes.set('/loop', (_req, res) => res.writeHead(302, { location: '/loop' }).end());
      const before = server.received.length;
      const error = await rejection(get('/loop'));
      assert.equal(String(error), 'TypeError: fetch failed');
      assert.match(fetchError(error, `${server.url}/loop`), /redirect/);
      assert.equal(server.received.length - before, 21);
    });

    void it('429 and 503 carry Retry-After to the retry policy; the same request is sent again', async () => {
      const answers = [
        { status: 503, headers: { 'retry-after': '1' } },
        { status: 429, headers: { 'retry-after': '5' } },
        { status: 502, headers: {} },
        { status: 200, headers: json },
      ];
      server.routes.set('/events', (_req, res) => {
        const answer = answers.shift();
        res.writeHead(answer?.status ?? 500, answer?.headers).end(answer?.status === 200 ? '{}' : 'busy');
      });
      const now = Date.parse('2026-11-28T10:00:00Z');
      const waits: number[] = [];
      let res = await post('/events', '{"hid":"h1"}');
      for (let failures = 0; !res.ok && failures < 5; failures++) {
        // The retry policy (net/retry.ts): Retry-After when given, else backoff (jitter at its midpoint).
        waits.push(parseRetryAfter(res.headers.get('retry-after'), now) ?? backoffDelay(failures, 0.5));
        res = await post('/events', '{"hid":"h1"}');
      }
      assert.deepEqual(waits, [1000, 5000, 4000]);
      assert.equal(res.status, 200);
      assert.deepEqual(
        server.received.filter((r) => r.path === '/events').map((r) => r.body),
        Array<string>(4).fill('{"hid":"h1"}'),
      );
    });

    void it('a timeout (the caller aborting) ends a request with no answer, and one stalled mid-body', async () => {
      server.routes.set('/silent', () => undefined);
      server.routes.set('/stall', (_req, res) => {
        res.writeHead(200, json);
        res.write('{"campaigns":[');
      });
      for (const path of ['/silent', '/stall']) {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), 100);
        const error = await rejection(get(path, controller.signal));
        clearTimeout(timer);
        assert.equal(error.name, 'AbortError', path);
      }
      // The pool is not poisoned: the next request is answered.
      assert.equal((await get('/gone')).status, 410);
    });

    void it('abort: before sending, and while waiting for the answer', async () => {
      const early = new AbortController();
      early.abort();
      assert.equal((await rejection(get('/gone', early.signal))).name, 'AbortError');
      server.routes.set('/wait', () => undefined);
      const controller = new AbortController();
      const arrived = server.nextRequest();
      const pending = post('/wait', '{}', controller.signal);
      await arrived;
      controller.abort();
      assert.equal((await rejection(pending)).name, 'AbortError');
    });

    void it('a refused connection fails as fetch does: TypeError "fetch failed", the cause named', async () => {
      const closed = await startTestServer();
      await closed.close();
      const error = await rejection(
        send({ url: `${closed.url}/x?k=secret`, signal: new AbortController().signal }),
      );
      assert.equal(String(error), 'TypeError: fetch failed');
      assert.match(
        fetchError(error, `${closed.url}/x?k=secret`),
        /^TypeError: fetch failed \(connect ECONNREFUSED /,
      );
    });

    void it('refuses a URL with credentials, as fetch does', async () => {
      const url = server.url.replace('//', '//user:pass@') + '/gone';
      const error = await rejection(send({ url, signal: new AbortController().signal }));
      assert.equal(error.name, 'TypeError');
      assert.doesNotMatch(fetchError(error, url), /pass/);
    });

    void describe('openStream (the live-update stream, PROTOCOL.md §17)', () => {
      /** Opens `path`, recording the head and each piece as it arrives. */
      const open = (
        path: string,
        signal = new AbortController().signal,
        headers: Record<string, string> = {},
      ) => {
        const seen: { head: StreamHead | null; chunks: string[] } = { head: null, chunks: [] };
        const done = openStream(
          { url: server.url + path, headers, signal },
          { open: (head) => (seen.head = head), chunk: (text) => seen.chunks.push(text) },
        );
        return { seen, done };
      };

      void it('hands the body over piece by piece as it arrives, sends the headers, resolves at the end', async () => {
        let write: ((text: string | Buffer) => void) | undefined;
        let end: (() => void) | undefined;
        server.routes.set('/stream', (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'retry-after': '3' });
          res.flushHeaders();
          write = (text) => res.write(text);
          end = () => res.end();
        });
        const { seen, done } = open('/stream', undefined, {
          accept: 'text/event-stream',
          'last-event-id': '41',
        });
        await until(() => write, { what: 'the stream to open' });
        assert.equal(seen.head?.status, 200);
        assert.equal(seen.head.ok, true);
        assert.equal(seen.head.headers.get('Content-Type'), 'text/event-stream');
        const received = server.received.at(-1);
        assert.equal(received?.headers['last-event-id'], '41');
        assert.equal(received.headers.accept, 'text/event-stream');
        write?.('id: 42\n');
        await until(() => seen.chunks.join('') === 'id: 42\n', { what: 'the first piece, before the end' });
        // '€' is three bytes: split between two writes, it still arrives whole.
        const euro = Buffer.from('data: €\n\n');
        write?.(euro.subarray(0, 8));
        await new Promise<void>((resolve) => setImmediate(resolve));
        write?.(euro.subarray(8));
        end?.();
        await done;
        assert.equal(seen.chunks.join(''), 'id: 42\ndata: €\n\n');
      });

      void it('a refusal gives its head (status, Retry-After) and no body piece', async () => {
        server.routes.set('/full', (_req, res) =>
          res.writeHead(503, { 'retry-after': '5', ...json }).end('{"code":"too_many_streams"}'),
        );
        const { seen, done } = open('/full');
        await done;
        assert.deepEqual([seen.head?.status, seen.head?.ok], [503, false]);
        assert.equal(seen.head?.headers.get('retry-after'), '5');
        assert.deepEqual(seen.chunks, []);
      });

      void it('abort (the SDK closing the stream) rejects with an AbortError', async () => {
        server.routes.set('/open', (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(': ping\n\n');
        });
        const controller = new AbortController();
        const { seen, done } = open('/open', controller.signal);
        await until(() => seen.chunks.length > 0, { what: 'the ping' });
        controller.abort();
        assert.equal((await rejection(done)).name, 'AbortError');
      });

      void it('a connection broken mid-stream rejects (TypeError, as fetch does)', async () => {
        server.routes.set('/broken', (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('data: 1\n\n');
          setImmediate(() => res.socket?.destroy());
        });
        const { done } = open('/broken');
        assert.equal((await rejection(done)).name, 'TypeError');
      });
    });

    void describe('TLS against a local HTTPS server', () => {
      let cert: Certificate;
      let tls: TestServer;
      before(async () => {
        cert = makeCertificate();
        tls = await startTestServer(cert);
        tls.routes.set('/bucketing.json', (_req, res) =>
          res
            .writeHead(200, { ...json, 'content-encoding': 'gzip', etag: '"b1"' })
            .end(gzipSync('{"ok":true}')),
        );
      });
      after(async () => {
        await tls.close();
        cert.remove();
      });

      void it('verifies the certificate: an unknown issuer fails', async () => {
        const error = await rejection(
          send({ url: `${tls.url}/bucketing.json`, signal: new AbortController().signal }),
        );
        assert.equal(String(error), 'TypeError: fetch failed');
        assert.match(fetchError(error, tls.url), /certificate/i);
      });

      void it('answers over TLS once the certificate is trusted (NODE_EXTRA_CA_CERTS, in a child process)', async () => {
        // Node reads extra CAs once, at start: the request runs in a child that trusts the test certificate.
        const { stdout } = await promisify(execFile)(
          process.execPath,
          [
            '--import',
            'tsx',
            new URL('tls-child.ts', import.meta.url).pathname,
            name,
            `${tls.url}/bucketing.json`,
          ],
          { env: { ...process.env, NODE_EXTRA_CA_CERTS: cert.certFile } },
        );
        assert.deepEqual(JSON.parse(stdout), { status: 200, etag: '"b1"', body: '{"ok":true}' });
      });
    });
  });
};
