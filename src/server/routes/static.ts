// The demo page (`/`) and the SDK bundles (`/sdk/`, PROTOCOL.md §2.3): files read from disk on request
// (they are small and change when rebuilt). Bundles load in CORS mode from any origin.
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { errors } from '../errors.js';

/** Where the static files are, and the demo environment when this process seeded it. */
export interface StaticOptions {
  /** Folder of demo/index.html. */
  demoDir: string;
  /** Folder of the SDK bundles (dist/browser). */
  sdkDir: string;
  /** The demo environment's id and API key, served to the demo page; absent when unknown. */
  demo?: { envId: string; apiKey: string };
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Resolves `relative` inside `root`, or null when it would leave it. */
const inside = (root: string, relative: string): string | null => {
  const path = normalize(join(root, relative));
  return path.startsWith(normalize(root) + sep) ? path : null;
};

const readOrNull = async (path: string): Promise<Buffer | null> => {
  try {
    return await readFile(path);
  } catch {
    return null;
  }
};

/** Registers `/`, `/demo/config.json` and `/sdk/*`. */
export const registerStaticRoutes = (app: FastifyInstance, options: StaticOptions): void => {
  app.get('/', async (request, reply) => {
    const page = await readOrNull(join(options.demoDir, 'index.html'));
    if (page === null) throw errors.notFound(request.method, request.url);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
  });
  app.get('/demo/config.json', async (_request, reply) => {
    const demo = options.demo;
    return reply.header('cache-control', 'no-store').send(
      demo === undefined
        ? {
            envId: null,
            apiKey: null,
            message: 'This server was not started with `npm start`: pass ?env=ID&key=KEY to the demo page.',
          }
        : { envId: demo.envId, apiKey: demo.apiKey },
    );
  });
  app.get('/sdk/*', async (request, reply) => {
    const relative = decodeURIComponent((request.params as Record<string, string>)['*'] ?? '');
    const path = inside(options.sdkDir, relative);
    const file = path === null ? null : await readOrNull(path);
    void reply.headers({
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
    });
    if (path === null || file === null) {
      throw errors.notFound(request.method, `${request.url} (build the SDK bundles with \`npm run build\`)`);
    }
    return reply
      .type(TYPES[extname(path)] ?? 'application/octet-stream')
      .header('cache-control', 'no-cache')
      .send(file);
  });
};
