// The operator route that rebuilds the report rollups from the stored rows (`feature-server report --rebuild`
// when a server holds the embedded store): POST starts it and answers 202 at once, GET says how far it is, so
// that a rebuild of millions of rows shows progress and no request waits minutes. Registered inside
// operator.ts's scope, whose hook has already checked the operator key.
import { needs } from '../auth/route-roles.js';
import type { FastifyPluginCallback } from 'fastify';
import type { AppContext } from '../app-context.js';
import { rebuildRollups } from '../report/rollups/fold-all.js';
import { errors } from '../errors.js';
import { progressLine } from '../report/rollups/rollup-progress.js';
import { rebuildAfterRetentionError } from '../store/rollups/rollup-horizon.js';
import { operatorRoute } from './operator-route-schemas.js';
import { errorAnswer, errorResponse } from './shared-schemas.js';
import type { ReportStore } from '../store/report-store.js';
import type { UpkeepStore } from '../store/upkeep-store.js';

const PATH = '/admin/v1/reports/rebuild';

/** Where the last rebuild this server ran stands. */
interface RebuildState {
  state: 'idle' | 'running' | 'done' | 'failed';
  /** Rows to fold, counted when it started. */
  total: number;
  folded: number;
  startedMs: number | null;
  elapsedMs: number;
  error: string | null;
}

const stateSchema = {
  type: 'object',
  required: ['state', 'total', 'folded', 'started_at', 'elapsed_ms', 'progress', 'error'],
  properties: {
    state: { enum: ['idle', 'running', 'done', 'failed'] },
    total: { type: 'integer', description: 'Stored rows to fold (activations, goal hits, identity links).' },
    folded: { type: 'integer', description: 'Rows folded so far.' },
    started_at: { type: ['string', 'null'], format: 'date-time' },
    elapsed_ms: { type: 'integer' },
    progress: { type: 'string', description: 'The progress line the CLI prints.' },
    error: { type: ['string', 'null'], description: 'Why a failed rebuild stopped.' },
  },
} as const;

const example = {
  state: 'running',
  total: 1_000_000,
  folded: 120_000,
  started_at: '2026-11-28T03:00:00.000Z',
  elapsed_ms: 5_400,
  progress: 'Report rollups: 120,000 of 1,000,000 rows folded (12 %), about 40 s left',
  error: null,
};

const doc = {
  start: operatorRoute({
    summary: 'Rebuild the report rollups',
    description:
      'Forgets the report rollups of every environment and folds every stored activation, goal hit and identity link again (issue 31): for recovery after a suspected defect, or to check the rollups. Answers 202 at once; GET this path for progress. Reports stay readable meanwhile, and each one read waits for its own environment to be folded. Starting while a rebuild runs answers its state without starting another.',
    response: {
      202: { ...stateSchema, description: 'The rebuild, started.', examples: [example] },
      409: errorResponse(
        'FEATURE_RETENTION_DAYS has dropped old months: a rebuild from the stored rows would lose their counts.',
        errorAnswer(errors.conflict(rebuildAfterRetentionError(Date.UTC(2026, 9, 1)).message)),
      ),
    },
  }),
  state: operatorRoute({
    summary: 'How far the rebuild of the report rollups is',
    description: 'The last rebuild this server started, or `idle` when none was.',
    response: { 200: { ...stateSchema, description: 'The rebuild.', examples: [example] } },
  }),
};

/** Registers the rebuild routes in the operator scope. */
export const operatorRollupRoutes: FastifyPluginCallback<{ ctx: AppContext<ReportStore & UpkeepStore> }> = (
  scope,
  { ctx },
  registered,
) => {
  const rebuild: RebuildState = {
    state: 'idle',
    total: 0,
    folded: 0,
    startedMs: null,
    elapsedMs: 0,
    error: null,
  };
  const answer = () => ({
    state: rebuild.state,
    total: rebuild.total,
    folded: rebuild.folded,
    started_at: rebuild.startedMs === null ? null : new Date(rebuild.startedMs).toISOString(),
    elapsed_ms: rebuild.elapsedMs,
    progress: progressLine({
      folded: rebuild.state === 'done' ? rebuild.total : rebuild.folded,
      total: rebuild.total,
      elapsedMs: rebuild.elapsedMs,
    }),
    error: rebuild.error,
  });

  scope.post(PATH, needs('operator_key', doc.start), async (_request, reply) => {
    // Refused here rather than in the background: the CLI then says why, not that a rebuild failed.
    const horizon = await ctx.store.retentionHorizon();
    if (rebuild.state !== 'running' && horizon > 0)
      throw errors.conflict(rebuildAfterRetentionError(horizon).message);
    if (rebuild.state !== 'running') {
      Object.assign(rebuild, {
        state: 'running',
        total: 0,
        folded: 0,
        startedMs: ctx.now(),
        elapsedMs: 0,
        error: null,
      });
      void rebuildRollups(ctx.store, {
        everyMs: 0,
        now: ctx.now,
        onProgress: ({ folded, total, elapsedMs }) => {
          Object.assign(rebuild, { folded, total, elapsedMs });
        },
      })
        .then((outcome) => {
          Object.assign(rebuild, { state: 'done', total: outcome.total, elapsedMs: outcome.elapsedMs });
          ctx.log.info({ rows: outcome.total, ms: outcome.elapsedMs }, 'report rollups rebuilt');
        })
        .catch((error: unknown) => {
          Object.assign(rebuild, {
            state: 'failed',
            elapsedMs: ctx.now() - (rebuild.startedMs ?? ctx.now()),
            error: error instanceof Error ? error.message : String(error),
          });
          ctx.log.error({ err: error }, 'report rollups rebuild failed');
        });
    }
    return reply.code(202).send(answer());
  });
  scope.get(PATH, needs('operator_key', doc.state), () => answer());
  registered();
};
