// What every screen of the console is given by <console-app>: the API, the account and environment chosen in the
// header, and ways to reload them and to tell the user something. It travels through @lit/context (a bubbling,
// composed `context-request` event that <console-app> answers), so a view nested at any depth gets it without
// each element in between handing it down, and a test provides a stub the same way.
import { ContextConsumer, createContext } from '@lit/context';
import type { ReactiveElement } from 'lit';
import type { ConsoleApi } from './api.js';
import type { SessionUser } from './roles.js';
import type { Account, Environment } from './types.js';

/** The console's shared state (a new object on each change, so a view sees a change as a new value). */
export interface ConsoleContext {
  api: ConsoleApi;
  /** The person signed in, with their role in each account; null for the operator key (every right). */
  user: SessionUser | null;
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

/** The context key <console-app> provides the shared state under. */
export const consoleContext = createContext<ConsoleContext>(Symbol('console-context'));

/** An element that shows the shared state: it keeps it in a reactive `context` property. */
export interface ContextHost extends ReactiveElement {
  context: ConsoleContext;
}

/**
 * Subscribes `host` to the shared state: `host.context` is set when the host connects under a provider, and again
 * on each change. As a reactive property it reaches `willUpdate(changed)`, where views compare the environment
 * or account they loaded with the new one.
 */
export const consumeConsoleContext = (
  host: ContextHost,
): ContextConsumer<typeof consoleContext, ContextHost> =>
  new ContextConsumer(host, {
    context: consoleContext,
    subscribe: true,
    callback: (value) => {
      host.context = value;
    },
  });
