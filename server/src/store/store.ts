// The store: everything the server keeps, behind a few interfaces by concept (one file each beside this one),
// implemented once over the SQL surface both databases share (sql/sql-store.ts; PGlite embedded, PostgreSQL
// through pg). A caller takes the interfaces it uses; `Store` is all of them, for what opens, runs or closes
// the whole (main.ts, the app, the CLI).
import type { AccessStore } from './access-store.js';
import type { AccountStore } from './account-store.js';
import type { AuditStore } from './audit-store.js';
import type { AssignmentStore } from './assignment-store.js';
import type { CampaignStore } from './campaign-store.js';
import type { CollectStore } from './collect-store.js';
import type { ConfigurationStore } from './configuration-store.js';
import type { ConsoleSessionStore } from './console-session-store.js';
import type { JoinLinkStore } from './join-link-store.js';
import type { ReportStore } from './report-store.js';
import type { SsoStore } from './sso-store.js';
import type { UpkeepStore } from './upkeep-store.js';
import type { UserStore } from './user-store.js';
import type { WebhookStore } from './webhook-store.js';

/** The store's operations. Every write that changes what decisions see publishes a change (§2.5). */
export interface Store
  extends
    AccountStore,
    CampaignStore,
    AccessStore,
    AuditStore,
    ConsoleSessionStore,
    ConfigurationStore,
    AssignmentStore,
    CollectStore,
    ReportStore,
    UpkeepStore,
    WebhookStore,
    UserStore,
    JoinLinkStore,
    SsoStore {
  /** "pglite" or "postgres", for logs and tests. */
  readonly kind: 'pglite' | 'postgres';
  /** Lets pending rollup folds finish, then closes the connection(s). */
  close(): Promise<void>;
}
