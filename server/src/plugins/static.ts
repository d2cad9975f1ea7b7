// The demo page (`/`), the framework demo (`/demo/framework/`) and the SDK bundles (`/sdk/`, PROTOCOL.md §2.3):
// files read from disk on request (they are small and change when rebuilt). Bundles load in CORS mode from any
// origin.
import { join, normalize, sep } from 'node:path';
import type { FastifyPluginCallback } from 'fastify';
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
  /** Folder of the built console (server/dist/console), served at `/admin`; absent: not served. */
  consoleDir?: string;
  /** The demo environment's id and API key, served to the demo page; absent when unknown. */
  demo?: { envId: string; apiKey: string };
}

const BUILD_FRAMEWORK_DEMO = '(build the framework demo: `npx vite build -c demo/framework/vite.config.ts`)';

/** Resolves `relative` inside `root`, or null when it would leave it. */
const inside = (root: string, relative: string): string | null => {
  const path = normalize(join(root, relative));
  return path.startsWith(normalize(root) + sep) ? path : null;
};

// Files, not API operations: left out of the OpenAPI document.
const hidden = { schema: { hide: true } };

/** Registers `/`, `/demo/config.json`, `/sdk/*` and, with `frameworkDemoDir`, `/demo/framework/*`. */
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
  const frameworkDir = options.frameworkDemoDir;
  if (frameworkDir !== undefined) {
    // The app's asset URLs are absolute (its base is /demo/framework/), so the page works with or without the
    // trailing slash; the router treats both as `/demo/framework`.
    app.get('/demo/framework', hidden, async (request, reply) => {
      if (!(await sendStaticFile(request, reply, join(frameworkDir, 'index.html'))))
        throw errors.notFound(request.method, `${request.url} ${BUILD_FRAMEWORK_DEMO}`);
      return reply;
    });
    app.get('/demo/framework/*', hidden, async (request, reply) => {
      // The router has decoded the path once already; decoding again would turn `%25…` into a URIError.
      const relative = (request.params as Record<string, string>)['*'] ?? '';
      const path = inside(frameworkDir, relative);
      if (path === null || !(await sendStaticFile(request, reply, path)))
        throw errors.notFound(request.method, `${request.url} ${BUILD_FRAMEWORK_DEMO}`);
      return reply;
    });
  }
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
