// The server package's programmatic entry: build the app over a store (tests, embedding in another process),
// or run it as the `feature-server` command does.
export { createApp, type AppDeps } from './app.js';
export { readServerConfig, type ServerConfig } from './config.js';
export { openStore, serve, type RunningServer } from './main.js';
export { openPgliteStore } from './store/pglite/pglite.js';
export { openPostgresStore, type PostgresOptions } from './store/postgres/postgres.js';
export type { Store } from './store/store.js';
export { runCli } from './cli.js';
