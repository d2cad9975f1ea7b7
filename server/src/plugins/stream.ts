// The live-update stream (PROTOCOL.md §17): `GET /v1/{envId}/stream`, server-sent events that tell SDKs when
// to download the bucketing file again (or re-fetch decisions). The reply is taken over from fastify (a stream
// has no end for it to serialize) and written by http/event-streams.ts; changes come from the hub that the
// environment cache feeds (configuration/live-changes.ts). No API key: it says nothing the public file does not.
import type { FastifyPluginCallback } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { EnvironmentState } from '../configuration/environment-state.js';
import type { LiveChanges } from '../configuration/live-changes.js';
import { errors } from '../errors.js';
import { lastModifiedOf } from '../http/conditional.js';
import { environmentOf, requireEnvironment } from '../http/environment-auth.js';
import {
  LiveStream,
  changeEvent,
  type ChangeEvent,
  type OpenStreams,
  type StreamEventName,
} from '../http/event-streams.js';
import { STREAM_RETRY_AFTER_SECONDS, streamRouteSchema } from './stream-schemas.js';
import { withSchema } from './shared-schemas.js';

/** What the stream route is built with. */
export interface StreamOptions {
  ctx: AppContext<unknown>;
  /** Where changes come from. */
  changes: LiveChanges;
  /** The app's open streams: their limit, pings and shutdown. */
  streams: OpenStreams;
}

/**
 * The revision in a Last-Event-ID header, or null. Anything that is not a revision we wrote (another server's
 * id, a proxy's, a repeated header) is taken as absent rather than refused or taken as "older": it says nothing
 * of what the client has, and the SDK re-fetches after every reconnect anyway (§17), so an event at once would
 * only double that fetch.
 */
const revisionOf = (header: string | string[] | undefined): number | null =>
  typeof header === 'string' && /^\d{1,15}$/.test(header) ? Number(header) : null;

/** Registers the live-update stream route. */
export const streamRoutes: FastifyPluginCallback<StreamOptions> = (
  app,
  { ctx, changes, streams },
  registered,
) => {
  // One change goes to every stream of its environment: its text is made once (per state and second, since
  // Last-Modified follows the clock until it reaches the configuration time, §2.5), not once per stream.
  let last: { state: EnvironmentState; second: number; event: ChangeEvent } | null = null;
  const eventOf = (state: EnvironmentState): ChangeEvent => {
    const nowMs = ctx.now();
    const second = Math.floor(nowMs / 1000);
    if (last?.state === state && last.second === second) return last.event;
    const event = changeEvent({
      revision: state.environment.configTime,
      etag: state.bucketing.etag,
      lastModified: lastModifiedOf(state.environment.configTime, nowMs),
    });
    last = { state, second, event };
    return event;
  };
  const route = { ...withSchema(streamRouteSchema), onRequest: requireEnvironment(ctx.environments) };
  app.get('/v1/:envId/stream', route, (request, reply) => {
    const state = environmentOf(request);
    // After the 404: an unknown environment is the client's mistake whatever the load.
    if (!streams.hasRoom()) throw errors.tooManyStreams(streams.limit, STREAM_RETRY_AFTER_SECONDS);
    const envId = state.environment.id;
    const current = state.environment.configTime;
    const lastEventId = revisionOf(request.headers['last-event-id']);
    // A client that has seen a revision this instance has not heard of yet (from another instance) is taken as
    // current, not as ahead: a bogus large id would otherwise silence its stream until that revision came.
    const known = lastEventId !== null && lastEventId < current ? lastEventId : current;

    reply.hijack();
    const response = reply.raw;
    // The CORS headers that the onRequest hook put on the reply (§2.3).
    for (const [name, value] of Object.entries(reply.getHeaders()))
      if (value !== undefined) response.setHeader(name, value);
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // nginx buffers proxied answers by default, which would hold events back until its buffer fills.
      'x-accel-buffering': 'no',
    });
    // HEAD (which fastify adds beside every GET) gets the headers alone: a body it would never carry must not
    // hold the connection, or count against the limit.
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    // EventSource reports the stream open only once the headers arrive; they would otherwise wait for the
    // first event or ping.
    response.flushHeaders();
    const { event: eventName } = request.query as { event: StreamEventName };
    const stream = new LiveStream(response, known, eventName);
    streams.add(stream);
    const unsubscribe = changes.subscribe(envId, (next) => stream.offer(eventOf(next)));
    response.once('close', () => {
      unsubscribe();
      streams.delete(stream);
    });
    // A Last-Event-ID older than the current revision: one event at once (none when it is current or absent).
    stream.offer(eventOf(state));
    // A change heard between the hook's read and the subscription reached no listener: read again (from memory,
    // unless that change dropped it) and send what is newer.
    void Promise.resolve(ctx.environments.get(envId)).then(
      (latest) => {
        if (latest !== null) stream.offer(eventOf(latest));
      },
      // Rare (the hook has just read it): the next change still comes through the hub.
      (error: unknown) => {
        request.log.warn({ err: error, envId }, 'reading the environment again for a new stream failed');
      },
    );
  });
  registered();
};
