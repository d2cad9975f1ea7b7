// One static file answer for the demo pages and the /sdk/ bundles: what a page pays is the compressed size, so
// text files go gzipped to clients that accept it, and `no-cache` revalidation is a 304 on an unchanged ETag.
// Files are read on request (they change when rebuilt); the compressed copy is kept per file version.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** Worth compressing: text. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.map', '.json', '.html', '.css', '.svg']);

interface Version {
  key: string;
  etag: string;
  body: Buffer;
  gzip: Buffer | null;
}

/** The last version read of each file, by path: a rebuilt file (new size or time) is read again. */
const versions = new Map<string, Version>();

const load = async (path: string): Promise<Version | null> => {
  let key: string;
  try {
    const info = await stat(path);
    if (!info.isFile()) return null;
    key = `${info.size}:${info.mtimeMs}`;
  } catch {
    return null;
  }
  const known = versions.get(path);
  if (known?.key === key) return known;
  let body: Buffer;
  try {
    body = await readFile(path);
  } catch {
    return null;
  }
  const version: Version = {
    key,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    body,
    gzip: COMPRESSIBLE.has(extname(path)) ? gzipSync(body, { level: constants.Z_BEST_COMPRESSION }) : null,
  };
  versions.set(path, version);
  return version;
};

/** True when `accept-encoding` allows gzip (absent q=0). */
const acceptsGzip = (header: string | undefined): boolean =>
  (header ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.find((p) => p.trim().startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (q === undefined || Number(q.trim().slice(2)) > 0);
  });

/**
 * Answers with the file at `path` (gzipped when the client accepts it; 304 when its ETag matches), or returns
 * false when there is no such file, so the route answers its own 404.
 */
export const sendStaticFile = async (
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
): Promise<boolean> => {
  const version = await load(path);
  if (version === null) return false;
  // The ETag names the identity bytes; the gzipped answer gets its own (PROTOCOL.md §2.5 says so for its files).
  const gzip = version.gzip !== null && acceptsGzip(request.headers['accept-encoding']);
  const etag = gzip ? `${version.etag.slice(0, -1)}-gz"` : version.etag;
  void reply
    .type(TYPES[extname(path)] ?? 'application/octet-stream')
    .header('cache-control', 'no-cache')
    .header('etag', etag);
  if (version.gzip !== null) void reply.header('vary', 'accept-encoding');
  const match = request.headers['if-none-match'];
  if (match !== undefined && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
    await reply.code(304).send();
    return true;
  }
  if (gzip && version.gzip !== null) void reply.header('content-encoding', 'gzip');
  await reply.send(gzip && version.gzip !== null ? version.gzip : version.body);
  return true;
};
