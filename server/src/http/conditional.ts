// Conditional GET of the bucketing file and account settings (PROTOCOL.md §2.5): strong ETag, Last-Modified
// from the stored configuration time, Cache-Control no-cache; If-None-Match first, If-Modified-Since only
// without it, and ignored when it is not a date or lies in the future (RFC 9110 §13.1.3): a client whose
// clock runs ahead would otherwise keep its stale copy until its clock's date had passed.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServedDocument } from '../configuration/environment-state.js';

/** True when an If-None-Match list names `etag` (or is `*`); weak comparison, as RFC 9110 §13.1.2 says. */
export const noneMatchHits = (header: string, etag: string): boolean =>
  header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);

/**
 * The Last-Modified, in seconds, of a document published at `configTime` (stored seconds): a publication in the
 * same second as the previous one carries the next second, so this is the previous second until that second
 * has come (it must never be later than Date) and rises then.
 */
const lastModifiedSeconds = (configTime: number, nowMs: number): number =>
  Math.min(configTime, Math.floor(nowMs / 1000));

/** The Last-Modified header of a document published at `configTime`; the live-update stream (§17) sends it too. */
export const lastModifiedOf = (configTime: number, nowMs: number): string =>
  new Date(lastModifiedSeconds(configTime, nowMs) * 1000).toUTCString();

/** Sends `doc` or a 304. `configTime` is the stored configuration time in seconds (see lastModifiedOf). */
export const sendConditional = (
  request: FastifyRequest,
  reply: FastifyReply,
  doc: ServedDocument,
  configTime: number,
  nowMs: number = Date.now(),
): FastifyReply => {
  const lastModified = lastModifiedSeconds(configTime, nowMs);
  void reply.headers({
    etag: doc.etag,
    'last-modified': new Date(lastModified * 1000).toUTCString(),
    'cache-control': 'no-cache',
    'content-type': 'application/json; charset=utf-8',
  });
  const noneMatch = request.headers['if-none-match'];
  if (typeof noneMatch === 'string') {
    if (noneMatchHits(noneMatch, doc.etag)) return reply.code(304).send();
  } else {
    const since = request.headers['if-modified-since'];
    const sinceMs = typeof since === 'string' ? Date.parse(since) : Number.NaN;
    if (Number.isFinite(sinceMs) && sinceMs <= nowMs && lastModified * 1000 <= sinceMs)
      return reply.code(304).send();
  }
  return reply.code(200).send(doc.bytes);
};
