// A local HTTP(S) server for the transport suite: routes set per test, every request recorded, and a
// self-signed certificate made at test time with openssl (Node has no certificate generator built in).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A request as the server received it. */
export interface Received {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Answers one request; `body` is what the client sent. */
export type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A running server. */
export interface TestServer {
  /** `http://127.0.0.1:{port}` or `https://…`. */
  url: string;
  /** Routes by path (query left out); an unknown path answers 404. */
  routes: Map<string, Route>;
  /** Every request so far, in arrival order. */
  received: Received[];
  /** Resolves once the next request has arrived (its body read), before it is answered. */
  nextRequest(): Promise<Received>;
  /** Closes the server and every connection, answered or not. */
  close(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1, in a temporary folder, and a way to remove it. */
export interface Certificate {
  certFile: string;
  cert: string;
  key: string;
  remove(): void;
}

/** Makes a certificate for IP 127.0.0.1, valid one day (openssl, as Debian ships it). */
export const makeCertificate = (): Certificate => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-transport-tls-'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=127.0.0.1'],
      ...['-addext', 'subjectAltName=IP:127.0.0.1'],
    ],
    { stdio: 'ignore' },
  );
  return {
    certFile,
    cert: readFileSync(certFile, 'utf8'),
    key: readFileSync(keyFile, 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
};

/** Starts a server on 127.0.0.1 with a free port: HTTP, or HTTPS with `tls`. */
export const startTestServer = async (tls?: Certificate): Promise<TestServer> => {
  const routes = new Map<string, Route>();
  const received: Received[] = [];
  const waiting: Array<(r: Received) => void> = [];
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').replace(/\?.*/, '');
      const request: Received = {
        method: req.method ?? '',
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      for (const resolve of waiting.splice(0)) resolve(request);
      const route = routes.get(path);
      if (route) route(req, res, request.body);
      else res.writeHead(404).end('no route');
    });
  };
  const server: Server = tls
    ? createTlsServer({ cert: tls.cert, key: tls.key }, handler)
    : createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    routes,
    received,
    nextRequest: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
