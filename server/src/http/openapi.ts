// The OpenAPI 3.1 document and the API reference page. @fastify/swagger collects every route as it is
// registered (an onRoute hook), so `registerOpenApi` must run before the routes are; the document is built
// from their schemas (plugins/*-schemas.ts), never written by hand. @fastify/swagger-ui serves the page and
// its assets from the installed package: nothing is fetched from another origin, and the page's
// Content-Security-Policy forbids it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { serverPackageRoot } from '../assets.js';
import { SECURITY_SCHEMES } from '../plugins/shared-schemas.js';

// @fastify/swagger adds fields to FastifyContextConfig, after which TypeScript checks a route's `config` keys
// against it: declare the one the app's routes use (read by error-handler.ts for the 415 message).
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The request content types of the route, named in its 415 answer. */
    accepts?: readonly string[];
  }
}

/** Where the document is served. */
export const OPENAPI_PATH = '/openapi.json';

/** Where the reference page is served (its assets under `/docs/static/`). */
export const DOCS_PATH = '/docs';

// Everything from this origin: connect-src 'self' keeps "Try it out" on this server. swagger-ui needs no
// 'unsafe-eval'; it does set an inline style.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
].join('; ');

const DESCRIPTION = `The feature server's HTTP API: decisions, bucketing file, activations and hits for the
SDKs; tokens and the remote control API for automation; operator routes for accounts, environments and accesses.

- Bodies are JSON. The SDK routes also take JSON text as \`text/plain\` (what \`sendBeacon\` sends) and answer
  CORS requests from any origin; the token routes take form-encoded parameters too.
- Errors: \`{"message", "code", "details"?}\` (the message says what to change, \`details\` names the field by
  its path); the token routes answer RFC 6749 bodies \`{"error", "error_description"}\`, the OFREP routes
  OFREP's \`{"key"?, "errorCode", "errorDetails"}\`.
- Not listed here: CORS preflights (\`OPTIONS\`), the demo page (\`/\`, \`/demo/…\`) and the SDK bundles (\`/sdk/…\`).

This document is generated from the routes' schemas: [${OPENAPI_PATH}](${OPENAPI_PATH}).`;

/** The server package's version, for the document's `info.version`. */
const packageVersion = (): string => {
  const parsed: unknown = JSON.parse(readFileSync(join(serverPackageRoot(), 'package.json'), 'utf8'));
  const version =
    typeof parsed === 'object' && parsed !== null && 'version' in parsed ? parsed.version : undefined;
  return typeof version === 'string' ? version : '0.0.0';
};

/** Registers the document at /openapi.json and the reference page at /docs; call before any route. */
export const registerOpenApi = async (app: FastifyInstance): Promise<void> => {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'feature-server', version: packageVersion(), description: DESCRIPTION },
      tags: [
        {
          name: 'sdk',
          description:
            'What the SDKs call: decisions, exposures, hits, the bucketing file. CORS: any origin.',
        },
        {
          name: 'ofrep',
          description:
            'OpenFeature Remote Evaluation Protocol (OFREP): any OpenFeature SDK\'s OFREP provider evaluates flags here with the environment\'s API key. Errors are OFREP\'s {"errorCode", "errorDetails"}. CORS: any origin.',
        },
        {
          name: 'tokens',
          description:
            'Bearer tokens for the remote control API, from client credentials (docs/remote-control.md).',
        },
        {
          name: 'remote-control',
          description: 'Campaigns, panic and reports of one environment, with a bearer token.',
        },
        {
          name: 'operator',
          description: 'Accounts, environments, accesses and campaigns, with the operator key.',
        },
      ],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    // Preflights are CORS machinery (routes that cors.ts adds for whole prefixes), not operations.
    transform: ({ schema, url, route }) => ({
      schema: route.method === 'OPTIONS' ? { ...schema, hide: true } : schema,
      url,
    }),
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PATH,
    staticCSP: CONTENT_SECURITY_POLICY,
    theme: { title: 'feature-server API reference' },
    uiConfig: { deepLinking: true, defaultModelsExpandDepth: 0, displayRequestDuration: true },
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(app.swagger()),
  );
};
