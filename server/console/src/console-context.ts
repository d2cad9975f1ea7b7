// What every screen of the console is given by <console-app>: the API, the account and environment chosen in the
// header, and ways to reload them and to tell the user something.
import type { ConsoleApi } from './api.js';
import type { Account, Environment } from './types.js';

/** The console's shared state, handed to each view as its `context` property (a new object on each change). */
export interface ConsoleContext {
  api: ConsoleApi;
  accounts: readonly Account[];
  /** The chosen account, or null when there is none yet. */
  account: Account | null;
  /** The chosen account's environments. */
  environments: readonly Environment[];
  /** The chosen environment, or null when the account has none. */
  environment: Environment | null;
  /** Reloads accounts and environments (after creating or changing one), keeping the choice when it still exists. */
  reload: (choose?: { accountId?: string; envId?: string }) => Promise<void>;
  /** Shows a short message in the page's live region. */
  notify: (message: string, kind?: 'info' | 'error') => void;
}
