// A proxy on 127.0.0.1 that passes every request to the server but cuts live-update streams (PROTOCOL.md §17)
// short, the way a load balancer or a mobile network drops long-lived connections: each stream answered 200 is
// ended after a delay the test chooses, half of the time cleanly (the end of the chunked body), half by a reset
// socket. Unlike fault-proxy.ts it streams the answer through (it never waits for a body that does not end).
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Options of {@link startStreamCuttingProxy}. */
export interface StreamCuttingProxyOptions {
  /** The server's origin, e.g. `http://127.0.0.1:4000`. */
  target: string;
  /** How long the next stream stays open, in ms (called once per stream). */
  cutAfterMs: () => number;
  /** Whether the next cut resets the socket rather than ending the body (called once per cut). */
  resets: () => boolean;
}

/** A running proxy. */
export interface StreamCuttingProxy {
  readonly url: string;
  /** Streams answered 200 so far. */
  opened(): number;
  /** Streams cut so far. */
  cut(): number;
  /** Streams open through the proxy now. */
  open(): number;
  close(): Promise<void>;
}

const isStream = (req: IncomingMessage): boolean => /\/stream(\?|$)/.test(req.url ?? '');

/** Starts the proxy on 127.0.0.1:0. */
export const startStreamCuttingProxy = async (
  options: StreamCuttingProxyOptions,
): Promise<StreamCuttingProxy> => {
  const target = new URL(options.target);
  let opened = 0;
  let cut = 0;
  let open = 0;
  const timers = new Set<ReturnType<typeof setTimeout>>();

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const out = forward(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        if (!isStream(req) || answer.statusCode !== 200) return;
        opened++;
        open++;
        let ended = false;
        const done = (): void => {
          if (ended) return;
          ended = true;
          open--;
        };
        res.once('close', done);
        const timer = setTimeout(() => {
          timers.delete(timer);
          cut++;
          answer.unpipe(res);
          // The server's side goes too, so that its stream closes as it would behind a real proxy.
          answer.destroy();
          if (options.resets()) res.socket?.destroy();
          else res.end();
          done();
        }, options.cutAfterMs());
        timers.add(timer);
        res.once('close', () => {
          clearTimeout(timer);
          timers.delete(timer);
        });
      },
    );
    out.once('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    opened: () => opened,
    cut: () => cut,
    open: () => open,
    close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
};
