// Reads of assignments without a query for visitors the database certainly does not hold. Every first visit
// of a visitor reads its (absent) history before deciding; on the embedded store that read was a round trip
// to PGlite's thread that the request waited for (about 4 ms under load, queued behind write-behind upserts)
// and a query's fixed cost there. Only for a database that this process alone writes: PGlite's data folder
// is locked to one process, so every row is either there when the store opens (a background scan adds
// those) or written through this store (added before the write is sent). On PostgreSQL other instances
// write too, so every read goes to the database.
import type { VisitorAssignments } from '../assignment-store.js';
import type { Store } from '../store.js';
import { text, type Queryable } from '../sql/sql.js';
import { VisitorFilter } from './visitor-filter.js';

/** Rows per page of the scan that fills the filter. */
const SCAN_PAGE = 5_000;
/** How long after a failed scan the next one starts. */
const RETRY_MS = 5_000;

/**
 * Wraps `store` so that getAssignments asks the database only for ids a filter says it may hold. Until the
 * filter is filled from the assignments table (scanned in the background from the first read on), every id
 * is asked for. After purges that deleted a quarter of the visitors the filter holds, it is filled again, so
 * that deleted visitors stop costing a read.
 */
export const filterAssignmentReads = (store: Store, db: Queryable): Store => {
  let current: VisitorFilter | null = null;
  // The filter a scan is filling; writes are added to it too. One scan at a time.
  let filling: VisitorFilter | null = null;
  let started = false;
  let deleted = 0;
  let closed = false;
  // Writes sent and not answered yet: a scan that starts meanwhile may pass their place before they commit.
  const writing = new Set<{ envId: string; visitors: readonly VisitorAssignments[] }>();

  const fill = async (next: VisitorFilter): Promise<void> => {
    for (const { envId, visitors } of writing) for (const v of visitors) next.add(envId, v.visitorId);
    let after: [string, string] = ['', ''];
    for (;;) {
      if (closed) return;
      const rows = await db.query(
        'SELECT env_id, visitor_id FROM assignments WHERE (env_id, visitor_id) > ($1, $2) ORDER BY env_id, visitor_id LIMIT $3',
        [...after, SCAN_PAGE],
      );
      for (const row of rows) {
        after = [text(row, 'env_id'), text(row, 'visitor_id')];
        next.add(after[0], after[1]);
      }
      if (rows.length < SCAN_PAGE) break;
    }
    current = next;
    deleted = 0;
  };
  const startFill = (): void => {
    if (filling !== null || closed) return;
    const next = new VisitorFilter();
    filling = next;
    fill(next)
      .catch(() => {
        // A store that stops (closed, or its worker restarting) ends the scan; reads go to the database
        // meanwhile, and a later scan takes over.
        setTimeout(startFill, RETRY_MS).unref();
      })
      .finally(() => {
        if (filling === next) filling = null;
      });
  };

  return {
    ...store,
    getAssignments: async (envId, visitorIds) => {
      // Scanned on first use, not on open: a CLI command that never reads assignments does not pay for it.
      if (!started) {
        started = true;
        startFill();
      }
      const filter = current;
      if (filter === null) return store.getAssignments(envId, visitorIds);
      const maybe = visitorIds.filter((id) => filter.mightHave(envId, id));
      return maybe.length === 0 ? [] : store.getAssignments(envId, maybe);
    },
    saveAssignments: async (envId, visitors) => {
      // Before the write: a write that fails leaves a false positive (one read), never a missed row.
      for (const visitor of visitors) {
        current?.add(envId, visitor.visitorId);
        filling?.add(envId, visitor.visitorId);
      }
      const write = { envId, visitors };
      writing.add(write);
      try {
        await store.saveAssignments(envId, visitors);
      } finally {
        writing.delete(write);
      }
    },
    purgeAssignments: async (beforeMs) => {
      const purged = await store.purgeAssignments(beforeMs);
      deleted += purged;
      if (current !== null && deleted > current.size / 4) startFill();
      return purged;
    },
    close: () => {
      closed = true;
      return store.close();
    },
  };
};
