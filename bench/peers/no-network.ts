// Proof that a peer makes no network request while it is measured. The platform's JS SDK does not use
// `globalThis.fetch` in Node (its Node build bundles node-fetch over `http`/`https`), so a fetch interceptor
// alone would prove nothing: every TCP connection goes through `net.Socket.prototype.connect`, which is
// watched too. A blocked call throws, so nothing leaves even when the SDK swallows the error.
import net from 'node:net';

/** A watch over the process's outgoing requests; `restore` puts everything back and returns what was tried. */
export interface NetworkGuard {
  /** What was tried so far: 'fetch <url>' or 'connect <target>'. */
  readonly attempts: readonly string[];
  restore(): readonly string[];
}

/** `host:port` (or the path of a local socket) of `Socket#connect`'s first argument, in its several forms. */
const describeTarget = (first: unknown): string => {
  const options: unknown = Array.isArray(first) ? first[0] : first;
  if (typeof options === 'object' && options !== null) {
    const o = options as { host?: unknown; hostname?: unknown; port?: unknown; path?: unknown };
    if (typeof o.path === 'string' && o.port === undefined) return o.path;
    const host =
      typeof o.hostname === 'string' ? o.hostname : typeof o.host === 'string' ? o.host : 'localhost';
    return `${host}:${typeof o.port === 'number' || typeof o.port === 'string' ? o.port : ''}`;
  }
  return typeof options === 'number' || typeof options === 'string' ? `port ${options}` : 'unknown target';
};

/** Blocks and records `fetch` and every TCP connection until `restore()`. */
export const forbidNetwork = (): NetworkGuard => {
  const attempts: string[] = [];
  const originalFetch = globalThis.fetch;
  const originalConnect = Object.getOwnPropertyDescriptor(net.Socket.prototype, 'connect');
  globalThis.fetch = (input: string | URL | Request): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    attempts.push(`fetch ${url}`);
    return Promise.reject(new Error(`no network in peer benches (fetch ${url})`));
  };
  Object.defineProperty(net.Socket.prototype, 'connect', {
    configurable: true,
    writable: true,
    value: (...args: unknown[]): never => {
      const target = describeTarget(args[0]);
      attempts.push(`connect ${target}`);
      throw new Error(`no network in peer benches (connect ${target})`);
    },
  });
  return {
    attempts,
    restore: () => {
      globalThis.fetch = originalFetch;
      if (originalConnect) Object.defineProperty(net.Socket.prototype, 'connect', originalConnect);
      else Reflect.deleteProperty(net.Socket.prototype, 'connect');
      return attempts;
    },
  };
};
