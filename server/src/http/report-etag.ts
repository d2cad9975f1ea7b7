// Conditional GET of campaign reports and their daily series (issue 31): the console re-reads both every few
// seconds, and most reads find nothing new. A report's figures are a function of the campaign's rollups (their
// revision rises with every change, store.campaignRollupRevision) and of its stored definition (names, order,
// allocations and analysis settings); a daily series also of the current UTC day (its range ends today). The
// ETag is a digest of exactly these, so a refresh that finds it unchanged answers 304 after reading the
// campaigns and the revision, without reading the rollups or computing anything.
//
// Both parts of a tag are read before the body is computed, so a change landing in between makes the body
// newer than its tag (the next refresh is one more 200), never older (which would pin a stale copy).
//
// Weak (`W/`): `generated_at` differs on every 200, so two answers under one tag are equivalent, not byte-equal
// (RFC 9110 §8.8.1). `private, no-cache`: a report is per caller and must be revalidated before each use.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DAY_MS } from '../report/attribution.js';
import type { CampaignRecord } from '../store/campaign-store.js';
import type { ReportStore } from '../store/report-store.js';

/** The Cache-Control of report answers (200 and 304). */
export const REPORT_CACHE_CONTROL = 'private, no-cache';

// Raised when the server computes a different body from the same stored data, so that copies kept across an
// upgrade are not taken for the new ones.
const FORMAT = 'report-1';

/** Which answer a tag is for: one report, a list of reports, or a daily series. */
export type ReportAnswerKind = 'report' | 'reports' | 'days';

/** What one campaign's answer is computed from: its stored definition and its rollups' revision. */
export interface ReportVersion {
  campaign: Pick<CampaignRecord, 'id' | 'body'>;
  revision: number;
}

/** The rollup revisions of `campaigns` as they stand now (every row stored before the call folded in). */
export const reportVersions = (
  store: ReportStore,
  envId: string,
  campaigns: readonly Pick<CampaignRecord, 'id' | 'body'>[],
): Promise<ReportVersion[]> =>
  Promise.all(
    campaigns.map(async (campaign) => ({
      campaign,
      revision: await store.campaignRollupRevision(envId, campaign.id),
    })),
  );

/** The weak ETag of an answer of `kind` over `versions`; a daily series' also names `nowMs`'s UTC day. */
export const reportEtag = (
  kind: ReportAnswerKind,
  versions: readonly ReportVersion[],
  nowMs: number,
): string => {
  const hash = createHash('sha256').update(`${FORMAT}\n${kind}\n`);
  if (kind === 'days') hash.update(`${Math.floor(nowMs / DAY_MS)}\n`);
  for (const { campaign, revision } of versions)
    hash.update(`${campaign.id.length}:${campaign.id}\n${revision}\n${JSON.stringify(campaign.body)}\n`);
  return `W/"${hash.digest('base64url').slice(0, 32)}"`;
};

const ENTITY_TAG = /\*|(?:W\/)?"[^"]*"/g;

/**
 * Whether an If-None-Match header names `etag` (RFC 9110 §13.1.2): a list of entity tags compared weakly
 * (`W/` ignored on both sides), or `*` (the routes ask only once the campaign is known to exist).
 */
export const noneMatchHits = (header: string, etag: string): boolean => {
  const opaque = etag.replace(/^W\//, '');
  return (header.match(ENTITY_TAG) ?? []).some((tag) => tag === '*' || tag.replace(/^W\//, '') === opaque);
};

/**
 * Answers a report route: 304 with `etag` and no body when the request's If-None-Match names it, else 200 with
 * `etag` and the body `build` computes. Headers are set only once the body is there, so an error answer
 * carries none of them.
 */
export const sendReportAnswer = async (
  request: FastifyRequest,
  reply: FastifyReply,
  etag: string,
  build: () => Promise<unknown>,
): Promise<FastifyReply> => {
  const noneMatch = request.headers['if-none-match'];
  if (typeof noneMatch === 'string' && noneMatchHits(noneMatch, etag))
    return reply.code(304).headers({ etag, 'cache-control': REPORT_CACHE_CONTROL }).send();
  const body = await build();
  return reply.headers({ etag, 'cache-control': REPORT_CACHE_CONTROL }).send(body);
};

/** True when `reply` is a report answer, whose Cache-Control a route group's `no-store` default must keep. */
export const isReportAnswer = (reply: FastifyReply): boolean =>
  reply.getHeader('cache-control') === REPORT_CACHE_CONTROL;
