// The operator's live traffic view (plugins/operator-insights.ts): an environment's newest accepted activations
// and hits past a cursor, for watching an integration send. Each table is read newest first by seq, through
// the (env_id, seq) indexes of migration 003, so a poll costs a short range scan however large the table;
// the two are then merged by received time. Within one table seq is the insertion order, which follows
// received time except between requests in flight together: close enough for a debugging view.
import { num, numOrNull, text, textOrNull, type Queryable, type Row } from './sql.js';
import type { TrafficItem, TrafficPage, TrafficQuery } from '../collect-store.js';

const activationItem = (row: Row): TrafficItem => ({
  kind: 'activation',
  seq: num(row, 'seq'),
  hid: textOrNull(row, 'hid'),
  visitorId: text(row, 'visitor_id'),
  anonymousId: textOrNull(row, 'anonymous_id'),
  campaignId: text(row, 'campaign_id'),
  variationGroupId: text(row, 'variation_group_id'),
  variationId: text(row, 'variation_id'),
  createdMs: num(row, 'created_ms'),
  receivedMs: num(row, 'received_ms'),
});

const hitItem = (row: Row): TrafficItem => ({
  kind: 'hit',
  seq: num(row, 'seq'),
  hid: textOrNull(row, 'hid'),
  type: text(row, 'type'),
  visitorId: text(row, 'visitor_id'),
  customerId: textOrNull(row, 'customer_id'),
  goal: textOrNull(row, 'goal'),
  revenue: numOrNull(row, 'revenue'),
  createdMs: num(row, 'created_ms'),
  receivedMs: num(row, 'received_ms'),
  // As text, parsed here: both drivers then hand back the body exactly as it was stored.
  body: JSON.parse(text(row, 'body')) as Record<string, unknown>,
});

/** Newest first by received time; seq breaks ties (and kind, for rows of both tables in one millisecond). */
const newestFirst = (a: TrafficItem, b: TrafficItem): number =>
  b.receivedMs - a.receivedMs || b.seq - a.seq || a.kind.localeCompare(b.kind);

/** Live traffic queries of the store. */
export const trafficQueries = (db: Queryable) => ({
  async traffic(envId: string, query: TrafficQuery): Promise<TrafficPage> {
    // The marks are read first and rows only up to them: a row stored between the statements is left to the
    // next poll (whose cursor is below it) instead of being shown twice.
    const [marks] = await db.query(
      `SELECT (SELECT max(seq) FROM activations WHERE env_id = $1) AS activation,
              (SELECT max(seq) FROM hits WHERE env_id = $1) AS hit`,
      [envId],
    );
    const cursor = {
      activation: Math.max(query.afterActivation, numOrNull(marks ?? {}, 'activation') ?? 0),
      hit: Math.max(query.afterHit, numOrNull(marks ?? {}, 'hit') ?? 0),
    };
    const params = (after: number, mark: number) =>
      query.visitor === null
        ? [envId, after, mark, query.limit]
        : [envId, after, mark, query.limit, query.visitor];
    const activations =
      cursor.activation > query.afterActivation
        ? await db.query(
            `SELECT seq, hid, visitor_id, anonymous_id, campaign_id, variation_group_id, variation_id,
                    created_ms, received_ms
             FROM activations WHERE env_id = $1 AND seq > $2 AND seq <= $3
             ${query.visitor === null ? '' : 'AND (visitor_id = $5 OR anonymous_id = $5)'}
             ORDER BY seq DESC LIMIT $4`,
            params(query.afterActivation, cursor.activation),
          )
        : [];
    const hits =
      cursor.hit > query.afterHit
        ? await db.query(
            `SELECT seq, hid, type, visitor_id, customer_id, goal, revenue, created_ms, received_ms,
                    body::text AS body
             FROM hits WHERE env_id = $1 AND seq > $2 AND seq <= $3
             ${query.visitor === null ? '' : 'AND (visitor_id = $5 OR customer_id = $5)'}
             ORDER BY seq DESC LIMIT $4`,
            params(query.afterHit, cursor.hit),
          )
        : [];
    const items = [...activations.map(activationItem), ...hits.map(hitItem)]
      .sort(newestFirst)
      .slice(0, query.limit);
    return { items, cursor };
  },
});
