// The one Store implementation over the shared SQL surface; PGlite and PostgreSQL differ only in `Sql`.
import { accessQueries } from './accesses-sql.js';
import { campaignEditQueries } from './campaign-edits-sql.js';
import { campaignQueries } from './campaigns-sql.js';
import { collectQueries } from './collect-sql.js';
import { consoleSessionQueries } from './console-sessions-sql.js';
import { configChannel, environmentQueries } from './environments-sql.js';
import { groupCommit } from './group-commit.js';
import { reportQueries } from './report-sql.js';
import type { Sql } from './sql.js';
import type { Store } from './store.js';
import { trafficQueries } from './traffic-sql.js';

/** Builds the store over an open, migrated database. */
export const createSqlStore = (sql: Sql, kind: Store['kind']): Store => {
  const channel = configChannel(sql.channelPrefix);
  const { storeActivations, storeHits, ...collect } = collectQueries(sql);
  return {
    kind,
    ...environmentQueries(sql, channel),
    ...campaignQueries(sql, channel),
    ...campaignEditQueries(sql, channel),
    ...accessQueries(sql),
    ...consoleSessionQueries(sql),
    ...collect,
    insertActivations: groupCommit(storeActivations),
    insertHits: groupCommit(storeHits),
    ...reportQueries(sql),
    ...trafficQueries(sql),
    onConfigurationChange: (listener, onInterruption) => sql.listen(channel, listener, onInterruption),
    close: () => sql.close(),
  };
};
