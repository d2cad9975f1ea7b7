// OpenFeature Remote Evaluation Protocol (PROTOCOL.md §18): `POST /ofrep/v1/evaluate/flags/{key}` and
// `POST /ofrep/v1/evaluate/flags`, so that any OpenFeature SDK with an OFREP provider evaluates flags here.
// The API key names the environment; the visitor (context.targetingKey) is decided through the decision API's
// own service (services/visitor-decision.ts), so both routes give one visitor the same variations and keep
// them sticky for each other. Like a decision it remembers new assignments; unlike the decision route it
// stores no context hit and never an activation (OFREP evaluations count no exposure).
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { noneMatchHits } from '../http/conditional.js';
import { environmentOf, requireEnvironmentOfKey } from '../http/environment-auth.js';
import { JSON_OR_TEXT } from '../http/json-body.js';
import { answerOfrepError, ofrepErrors } from '../http/ofrep-errors.js';
import { etagOf, ofrepBulkAnswer, ofrepEvaluation } from '../services/ofrep-answers.js';
import { decideForVisitor } from '../services/visitor-decision.js';
import { readOfrepVisitor } from '../validation/ofrep-request.js';
import { OFREP_BODY_LIMIT } from './ofrep-error-schemas.js';
import { ofrepBulkRouteSchema, ofrepFlagRouteSchema } from './ofrep-schemas.js';
import { withSchema } from './shared-schemas.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The environment's change stream (§17) on the origin the client called: behind a proxy, `TRUST_PROXY` makes
 * that the proxy's (X-Forwarded-Proto and -Host), so the URL is one the client can reach. A request without
 * a Host header (HTTP/1.0) gets the address it reached.
 */
const streamUrlOf = (request: FastifyRequest, envId: string): string => {
  const sent: unknown = request.host;
  const address = request.socket.localAddress ?? '127.0.0.1';
  const host =
    typeof sent === 'string' && sent !== ''
      ? sent
      : `${address.includes(':') ? `[${address}]` : address}:${request.socket.localPort ?? 80}`;
  return `${request.protocol}://${host}/v1/${encodeURIComponent(envId)}/stream?event=message`;
};

/** Registers the OFREP routes, with OFREP's error bodies for everything they refuse. */
export const ofrepRoutes: FastifyPluginCallback<{ ctx: AppContext<unknown> }> = (
  app,
  { ctx },
  registered,
) => {
  // This plugin's own scope: the catalogue's handler stays the answer of every other route.
  app.setErrorHandler(answerOfrepError);
  const options = {
    bodyLimit: OFREP_BODY_LIMIT,
    config: { accepts: JSON_OR_TEXT },
    onRequest: requireEnvironmentOfKey(ctx.environments, {
      missing: ofrepErrors.missingApiKey,
      unknown: ofrepErrors.invalidApiKey,
    }),
  };
  // Every key the visitor's campaigns set, null ones included (§9.2): a variation that leaves a flag to the
  // application's default is still the variation the visitor is in.
  const decide = (request: FastifyRequest) =>
    decideForVisitor(
      ctx,
      environmentOf(request),
      readOfrepVisitor(request.body),
      { exposeAllKeys: true },
      request.log,
    );

  app.post(
    '/ofrep/v1/evaluate/flags/:key',
    { ...withSchema(ofrepFlagRouteSchema), ...options },
    async (request, reply) => {
      const { key } = request.params as { key: string };
      const decision = await decide(request);
      const evaluation = ofrepEvaluation(decision, key, environmentOf(request).flagKeys);
      if (evaluation === undefined) throw ofrepErrors.flagNotFound(key);
      return reply.type(JSON_TYPE).send(JSON.stringify(evaluation));
    },
  );

  app.post(
    '/ofrep/v1/evaluate/flags',
    { ...withSchema(ofrepBulkRouteSchema), ...options },
    async (request, reply) => {
      const state = environmentOf(request);
      const decision = await decide(request);
      const body = JSON.stringify(
        ofrepBulkAnswer(decision, state.flagKeys, streamUrlOf(request, state.environment.id)),
      );
      const etag = etagOf(body);
      void reply.header('etag', etag);
      const noneMatch = request.headers['if-none-match'];
      if (typeof noneMatch === 'string' && noneMatchHits(noneMatch, etag)) return reply.code(304).send();
      return reply.type(JSON_TYPE).send(body);
    },
  );
  registered();
};
