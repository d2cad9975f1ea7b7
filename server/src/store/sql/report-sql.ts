// The rows a campaign report is computed from (§14): activations with their person, and the goal hits of
// the persons exposed to the campaign. The person rule of §14.2 is one SQL expression, used by both.
import { num, text, textOrNull, type Queryable } from './sql.js';
import type { ReportConversion, ReportExposure } from '../report-store.js';

// An activation with an anonymous id is made by its authenticated id; otherwise its id is an anonymous id
// (or an authenticated one never seen with another), whose person is the first authenticated id seen with it.
const ACTIVATION_PERSON = `CASE WHEN a.anonymous_id IS NOT NULL AND a.anonymous_id <> a.visitor_id
  THEN a.visitor_id ELSE COALESCE(ia.person_id, a.visitor_id) END`;

const EXPOSURES = `FROM activations a
  LEFT JOIN identities ia ON ia.env_id = a.env_id AND ia.anonymous_id = a.visitor_id
  WHERE a.env_id = $1 AND a.campaign_id = $2`;

/** Report queries of the store. */
export const reportQueries = (db: Queryable) => ({
  async reportExposures(envId: string, campaignId: string): Promise<ReportExposure[]> {
    const rows = await db.query(
      `SELECT ${ACTIVATION_PERSON} AS person, a.visitor_id, a.hid, a.variation_group_id, a.variation_id,
              a.created_ms, a.seq
       ${EXPOSURES} ORDER BY a.created_ms, a.seq`,
      [envId, campaignId],
    );
    return rows.map((row) => ({
      person: text(row, 'person'),
      visitorId: text(row, 'visitor_id'),
      hid: textOrNull(row, 'hid'),
      variationGroupId: text(row, 'variation_group_id'),
      variationId: text(row, 'variation_id'),
      createdMs: num(row, 'created_ms'),
      seq: num(row, 'seq'),
    }));
  },
  async reportConversions(envId: string, campaignId: string): Promise<ReportConversion[]> {
    const rows = await db.query(
      `WITH exposed AS (SELECT DISTINCT ${ACTIVATION_PERSON} AS person ${EXPOSURES}),
       goal_hits AS (
         SELECT COALESCE(h.customer_id, ih.person_id, h.visitor_id) AS person, h.type, h.goal,
                COALESCE(h.revenue, 0) AS revenue, h.created_ms, h.seq
         FROM hits h LEFT JOIN identities ih ON ih.env_id = h.env_id AND ih.anonymous_id = h.visitor_id
         WHERE h.env_id = $1 AND h.goal IS NOT NULL
           AND (h.type = 'TRANSACTION' OR (h.type = 'EVENT' AND left(h.goal, 3) <> 'fs_')))
       SELECT g.person, g.type, g.goal, g.revenue, g.created_ms FROM goal_hits g
       JOIN exposed e ON e.person = g.person ORDER BY g.created_ms, g.seq`,
      [envId, campaignId],
    );
    return rows.map((row) => ({
      person: text(row, 'person'),
      kind: text(row, 'type') === 'TRANSACTION' ? 'TRANSACTION' : 'EVENT',
      goal: text(row, 'goal'),
      revenue: num(row, 'revenue'),
      createdMs: num(row, 'created_ms'),
    }));
  },
});
