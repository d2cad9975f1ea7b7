// The demo page (`/`), the framework demo (`/demo/framework/`), the OpenFeature demo (`/demo/openfeature/`) and
// the SDK bundles (`/sdk/`, PROTOCOL.md §2.3):
// files read from disk on request (they are small and change when rebuilt). Bundles load in CORS mode from any
// origin.
import { join, normalize, sep } from 'node:path';
import type { FastifyInstance, FastifyPluginCallback } from 'fastify';
import { errors } from '../errors.js';
import { SDK_BUNDLE_HEADERS } from '../http/cors.js';
import { sendStaticFile } from '../http/static-file.js';

/** Where the static files are, and the demo environment when this process seeded it. */
export interface StaticOptions {
  /** Folder of the demo shop page (index.html; server/dist/demo, copied from demo/index.html). */
  demoDir: string;
  /** Folder of the SDK bundles (dist/sdk of the feature-ts package). */
  sdkDir: string;
  /** Folder of the built framework demo (server/dist/demo/framework), served at `/demo/framework/`; absent: not served. */
  frameworkDemoDir?: string;
  /** Folder of the built OpenFeature demo (server/dist/demo/openfeature), served at `/demo/openfeature/`; absent: not served. */
  openfeatureDemoDir?: string;
  /** Folder of the built console (server/dist/console), served at `/admin`; absent: not served. */
  consoleDir?: string;
  /** The demo environment's id and API key, served to the demo page; absent when unknown. */
  demo?: { envId: string; apiKey: string };
}

/** How to build each vite-built demo, said in its 404. */
const BUILD_FRAMEWORK_DEMO = '(build the framework demo: `npx vite build -c demo/framework/vite.config.ts`)';
const BUILD_OPENFEATURE_DEMO =
  '(build the OpenFeature demo: `npx vite build -c demo/openfeature/vite.config.ts`)';

/** Resolves `relative` inside `root`, or null when it would leave it. */
const inside = (root: string, relative: string): string | null => {
  const path = normalize(join(root, relative));
  return path.startsWith(normalize(root) + sep) ? path : null;
};

// Files, not API operations: left out of the OpenAPI document.
const hidden = { schema: { hide: true } };

/**
 * Serves a vite-built demo at `prefix` (its index.html) and `prefix/*` (its files). Its asset URLs are absolute
 * (its base is `prefix/`), so the page works with or without the trailing slash.
 */
const serveBuiltDemo = (app: FastifyInstance, prefix: string, dir: string, howToBuild: string): void => {
  app.get(prefix, hidden, async (request, reply) => {
    if (!(await sendStaticFile(request, reply, join(dir, 'index.html'))))
      throw errors.notFound(request.method, `${request.url} ${howToBuild}`);
    return reply;
  });
  app.get(`${prefix}/*`, hidden, async (request, reply) => {
    // The router has decoded the path once already; decoding again would turn `%25…` into a URIError.
    const relative = (request.params as Record<string, string>)['*'] ?? '';
    const path = inside(dir, relative);
    if (path === null || !(await sendStaticFile(request, reply, path)))
      throw errors.notFound(request.method, `${request.url} ${howToBuild}`);
    return reply;
  });
};

/**
 * Registers `/`, `/demo/config.json`, `/sdk/*` and, with their folders, `/demo/framework/*` and
 * `/demo/openfeature/*`.
 */
export const staticRoutes: FastifyPluginCallback<StaticOptions> = (app, options, registered) => {
  app.get('/', hidden, async (request, reply) => {
    if (!(await sendStaticFile(request, reply, join(options.demoDir, 'index.html'))))
      throw errors.notFound(request.method, request.url);
    return reply;
  });
  app.get('/demo/config.json', hidden, async (_request, reply) => {
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
  if (options.frameworkDemoDir !== undefined)
    serveBuiltDemo(app, '/demo/framework', options.frameworkDemoDir, BUILD_FRAMEWORK_DEMO);
  if (options.openfeatureDemoDir !== undefined)
    serveBuiltDemo(app, '/demo/openfeature', options.openfeatureDemoDir, BUILD_OPENFEATURE_DEMO);
  app.get('/sdk/*', hidden, async (request, reply) => {
    // The router has decoded the path once already; decoding again would turn `%25…` into a URIError.
    const relative = (request.params as Record<string, string>)['*'] ?? '';
    const path = inside(options.sdkDir, relative);
    void reply.headers(SDK_BUNDLE_HEADERS);
    if (path === null || !(await sendStaticFile(request, reply, path)))
      throw errors.notFound(request.method, `${request.url} (build the SDK bundles with \`npm run build\`)`);
    return reply;
  });
  registered();
};
