// What the routes share: the store, the per-environment cache, the assignment service and the log.
import type { Logger } from 'pino';
import type { AssignmentService } from './assignments/assignment-service.js';
import type { EnvironmentCache } from './configuration/environment-cache.js';
import type { Store } from './store/store.js';

/**
 * The services every route is built with. A route group names the store interfaces it uses (`AppContext<CollectStore>`),
 * so what it can reach of the store is what its type says; the app passes the whole store.
 */
export interface AppContext<S = Store> {
  store: S;
  environments: EnvironmentCache;
  assignments: AssignmentService;
  log: Logger;
  /** The clock (tests may pin it). */
  now: () => number;
}
