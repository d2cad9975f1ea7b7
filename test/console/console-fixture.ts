// What the console's component tests share: a stub of the console's API that records every call and answers from
// a table, and a provider of the shared state (@lit/context, as <console-app> provides it) around the element
// under test, so a test renders one element as the app would and asserts on the requests it makes.
import { ContextProvider } from '@lit/context';
import { fixture } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import type { RemoteCampaign } from '../../src/protocol/index.js';
import { ConsoleApiError, type ConsoleApi, type TaggedAnswer } from '../../server/console/src/api.js';
import { consoleContext, type ConsoleContext } from '../../server/console/src/console-context.js';
import type { Account, Environment } from '../../server/console/src/types.js';
import { until } from '../support/until.js';

/** The project's one bounded wait (never a fixed sleep). */
export { until };

/** One request the element made through the API. */
export interface ApiCall {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
}

/** An answer of the stub: a value, or a function of the call (which may throw a ConsoleApiError). */
export type StubAnswer = unknown;

/**
 * The console's API without a server: `answers` maps `"METHOD path"` to what the server would answer (a value or
 * a function of the call); anything else is a 404, as the server would answer an unknown path.
 */
export class StubApi {
  /** Every call, in order. */
  readonly calls: ApiCall[] = [];
  readonly #answers: Map<string, StubAnswer>;

  constructor(answers: Record<string, StubAnswer> = {}) {
    this.#answers = new Map(Object.entries(answers));
  }

  /** Sets (or replaces) the answer of `"METHOD path"`. */
  answer(key: string, answer: StubAnswer): void {
    this.#answers.set(key, answer);
  }

  /** The calls made with `method` (and whose path is `path`, when given). */
  made(method: ApiCall['method'], path?: string): ApiCall[] {
    return this.calls.filter((c) => c.method === method && (path === undefined || c.path === path));
  }

  async #call<T>(method: ApiCall['method'], path: string, body?: unknown): Promise<T> {
    const call: ApiCall = body === undefined ? { method, path } : { method, path, body };
    this.calls.push(call);
    await Promise.resolve();
    const key = `${method} ${path}`;
    if (!this.#answers.has(key)) throw new ConsoleApiError(404, 'not_found', `No ${key} in this test.`);
    const answer = this.#answers.get(key);
    return (typeof answer === 'function' ? await (answer as (c: ApiCall) => unknown)(call) : answer) as T;
  }

  get<T>(path: string): Promise<T> {
    return this.#call<T>('GET', path);
  }
  async getIfChanged<T>(path: string, etag: string): Promise<TaggedAnswer<T> | null> {
    const value = await this.#call<T>('GET', path);
    const next = JSON.stringify(value);
    return etag === next ? null : { value, etag: next };
  }
  post<T>(path: string, body?: unknown): Promise<T> {
    return this.#call<T>('POST', path, body);
  }
  patch<T>(path: string, body: unknown): Promise<T> {
    return this.#call<T>('PATCH', path, body);
  }
  put<T>(path: string, body: unknown): Promise<T> {
    return this.#call<T>('PUT', path, body);
  }
  delete(path: string): Promise<null> {
    return this.#call<null>('DELETE', path);
  }
  signIn(credential: unknown): Promise<unknown> {
    return this.#call('POST', '/session', credential);
  }
  /** The accounts offering single sign-on the sign-in screen is told of (not recorded as a call). */
  offers: Array<{ account_id: string; name: string; start_path: string }> = [];
  singleSignOnOffers(): Promise<Array<{ account_id: string; name: string; start_path: string }>> {
    return Promise.resolve(this.offers);
  }
  useLink(kind: 'invitation' | 'reset', body: unknown): Promise<unknown> {
    return this.#call(
      'POST',
      kind === 'invitation' ? '/session/invitation' : '/session/password-reset',
      body,
    );
  }
  async endAllSessions(): Promise<number> {
    return (await this.#call<{ ended: number }>('DELETE', '/console/sessions')).ended;
  }
}

/** An account of the tests. */
export const ACCOUNT: Account = { id: 'acc-1', name: 'Shop', created_at: '2026-11-01T10:00:00.000Z' };

/** The chosen environment of the tests. */
export const ENV: Environment = {
  id: 'env-1',
  account_id: ACCOUNT.id,
  name: 'Production',
  panic: false,
  settings: { enabledXPC: false, enabled1V1T: false },
};

/** A stored A/B test of the tests: one group for everyone, two variations of a button's text. */
export const campaignOf = (overrides: Partial<RemoteCampaign> = {}): RemoteCampaign => ({
  id: 'camp-1',
  name: 'Buy button',
  description: '',
  type: 'ab',
  slug: 'buy-button',
  state: 'active',
  variation_groups: [
    {
      id: 'vg-1',
      name: 'Everyone',
      targeting: {
        targeting_groups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: true }] }],
      },
      variations: [
        {
          id: 'v-orig',
          name: 'Original',
          reference: true,
          allocation: 50,
          modifications: { type: 'FLAG', value: { btnText: 'Buy' } },
        },
        {
          id: 'v-green',
          name: 'Green',
          reference: false,
          allocation: 50,
          modifications: { type: 'FLAG', value: { btnText: 'Buy now' } },
        },
      ],
    },
  ],
  bucket_ranges: [[0, 100]],
  analysis: { primary_goal: null, method: 'sequential', alpha: 0.05, expected_visitors: 5000 },
  created_at: '2026-11-02T10:00:00.000Z',
  updated_at: '2026-11-03T10:00:00.000Z',
  ...overrides,
});

/** The shared state an element under test was given, and what it did with it. */
export interface Mounted<T extends HTMLElement> {
  el: T;
  api: StubApi;
  context: ConsoleContext;
  /** The messages the element showed through `notify`. */
  notices: Array<{ message: string; kind: 'info' | 'error' }>;
  /** The choices the element asked `reload` for. */
  reloads: Array<{ accountId?: string; envId?: string } | undefined>;
  /** Provides a changed state, as <console-app> does when the header's choice changes. */
  change: (update: Partial<ConsoleContext>) => Promise<void>;
}

const hosts: HTMLElement[] = [];
afterEach(() => {
  for (const host of hosts.splice(0)) host.remove();
});

/** Renders `template` under a provider of the shared state, with `api` and the account and environment above. */
export const mount = async <T extends HTMLElement>(
  template: TemplateResult,
  api: StubApi = new StubApi(),
  state: Partial<ConsoleContext> = {},
): Promise<Mounted<T>> => {
  const host = document.createElement('div');
  document.body.append(host);
  hosts.push(host);
  const notices: Mounted<T>['notices'] = [];
  const reloads: Mounted<T>['reloads'] = [];
  let context: ConsoleContext = {
    api: api as unknown as ConsoleApi,
    user: null,
    accounts: [ACCOUNT],
    account: ACCOUNT,
    environments: [ENV],
    environment: ENV,
    reload: (choose) => {
      reloads.push(choose);
      return Promise.resolve();
    },
    notify: (message, kind = 'info') => void notices.push({ message, kind }),
    ...state,
  };
  const provider = new ContextProvider(host, { context: consoleContext, initialValue: context });
  const el = await fixture<T>(template, { parentNode: host });
  return {
    el,
    api,
    get context() {
      return context;
    },
    notices,
    reloads,
    change: async (update) => {
      context = { ...context, ...update };
      provider.setValue(context);
      await (el as unknown as { updateComplete?: Promise<unknown> }).updateComplete;
    },
  };
};

/** The element of `selector` in `el`'s shadow root; fails the test when there is none. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- as querySelector<E>: the test knows the element
export const inShadow = <E extends Element = HTMLElement>(el: Element, selector: string): E => {
  const found = el.shadowRoot?.querySelector<E>(selector);
  if (found === null || found === undefined) throw new Error(`no ${selector} in <${el.localName}>`);
  return found;
};

/** Types `value` into an input, select or textarea as a user does: sets it, then fires `input` and `change`. */
export const typeInto = (
  field: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement,
  value: string,
) => {
  field.value = value;
  field.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  field.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
};

/** Answers the open confirmation dialog (widgets/confirm.ts) as a user does: clicks its confirm or cancel button. */
export const answerConfirm = async (choice: 'confirm' | 'cancel'): Promise<void> => {
  // [open]: a dialog just answered stays in the DOM until its close event, which comes a task later.
  await until(() => document.querySelector('dialog.console-confirm[open]') !== null, {
    what: 'a confirmation',
  });
  document
    .querySelector<HTMLButtonElement>(`dialog.console-confirm[open] button[value="${choice}"]`)
    ?.click();
};

/** `value`, or a failed test when it is missing (instead of a non-null assertion). */
export const must = <T>(value: T | null | undefined, what = 'a value'): T => {
  if (value === null || value === undefined) throw new Error(`${what} is missing`);
  return value;
};
