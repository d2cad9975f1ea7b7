// The transport suite against `node:http`/`node:https` with keep-alive (#transport under the `node` condition),
// and what only this implementation does: keep-alive reuse, and which file `#transport` names where.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { send as fetchSend } from '../../../src/core/net/fetch-transport.js';
import { openStream, send } from '../../../src/core/net/node-transport.js';
import { startTestServer, type TestServer } from './transport-server.js';
import { transportSuite } from './transport.suite.js';

transportSuite('node', send, openStream);

void describe('node transport: keep-alive', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    server.routes.set('/port', (req, res) => res.writeHead(200).end(String(req.socket.remotePort)));
  });
  after(() => server.close());
  const get = (path: string) => send({ url: server.url + path, signal: new AbortController().signal });

  void it('sends one request after another over one connection', async () => {
    const ports = [];
    for (let i = 0; i < 3; i++) ports.push((await get('/port')).body);
    assert.equal(new Set(ports).size, 1, ports.join());
  });

  void it('a kept-alive connection the server dropped before answering is retried once on a new one', async () => {
    const first = (await get('/port')).body;
    let drops = 0;
    server.routes.set('/drop-reused', (req, res) => {
      // The race a server closing an idle connection makes: the request meets a closed socket.
      if (String(req.socket.remotePort) === first && drops++ === 0) req.socket.destroy();
      else res.writeHead(200).end(String(req.socket.remotePort));
    });
    const res = await get('/drop-reused');
    assert.equal(res.status, 200);
    assert.notEqual(res.body, first);
    assert.equal(drops, 1);
  });
});

void describe('#transport (package.json imports)', () => {
  /** What Node's own resolver (no tsx) makes of `#transport` with `conditions`, relative to the repo root. */
  const resolved = (...conditions: string[]): string => resolvedImport('#transport', conditions);
  /** The same for `specifier`. */
  const resolvedImport = (specifier: string, conditions: string[]): string =>
    execFileSync(
      process.execPath,
      [
        ...conditions.map((c) => `--conditions=${c}`),
        '--input-type=module',
        '-e',
        `process.stdout.write(import.meta.resolve(${JSON.stringify(specifier)}))`,
      ],
      { encoding: 'utf8' },
    ).replace(/^file:\/\/.*?\/(src|dist)\//, '$1/');

  void it('names the Node transport in Node: dist/lib when built, src/ with feature-ts-source', () => {
    assert.equal(resolved(), 'dist/lib/core/net/node-transport.js');
    assert.equal(resolved('feature-ts-source'), 'src/core/net/node-transport.ts');
  });

  void it('#stream-transport names the Node transport in Node, fetch-stream.ts elsewhere', () => {
    assert.equal(resolvedImport('#stream-transport', []), 'dist/lib/core/net/node-transport.js');
    assert.equal(
      resolvedImport('#stream-transport', ['feature-ts-source']),
      'src/core/net/node-transport.ts',
    );
    // Without the `node` condition (browsers' bundlers): Node always adds it, so only the mapping itself says.
    const imports = (
      JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
        imports: Record<string, { default: string; 'feature-ts-source': { default: string } }>;
      }
    ).imports['#stream-transport'];
    assert.equal(imports?.default, './dist/lib/core/net/fetch-stream.js');
    assert.equal(imports['feature-ts-source'].default, './src/core/net/fetch-stream.ts');
  });

  void it('tests and benches (tsx, tsconfig paths) get the Node transport', async () => {
    const { send: chosen } = await import('#transport');
    assert.equal(chosen, send);
    assert.notEqual(chosen, fetchSend);
  });
});
