// The one Store implementation over the shared SQL surface; PGlite and PostgreSQL differ only in `Sql`.
import { campaignQueries } from './campaigns-sql.js';
import { collectQueries } from './collect-sql.js';
import { configChannel, environmentQueries } from './environments-sql.js';
import { reportQueries } from './report-sql.js';
import type { Sql } from './sql.js';
import type { Store } from './store.js';

/** Builds the store over an open, migrated database. */
export const createSqlStore = (sql: Sql, kind: Store['kind']): Store => {
  const channel = configChannel(sql.channelPrefix);
  return {
    kind,
    ...environmentQueries(sql, channel),
    ...campaignQueries(sql, channel),
    ...collectQueries(sql),
    ...reportQueries(sql),
    onConfigurationChange: (listener, onInterruption) => sql.listen(channel, listener, onInterruption),
    close: () => sql.close(),
  };
};
