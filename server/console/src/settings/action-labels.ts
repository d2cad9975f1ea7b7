// Readable names for the remote control API's actions (PROTOCOL.md §13.2). The codes stay visible beside them:
// they are what a token's scope carries and what the API documentation names.
import { ACTIONS, type Action } from 'feature-ts/protocol';
import { html, type TemplateResult } from 'lit';

/** What each action lets a token do, in the words of the console. */
export const ACTION_LABELS: Readonly<Record<Action, string>> = {
  'campaign.list': 'List campaigns',
  'campaign.read': 'Read a campaign',
  'campaign.create': 'Create campaigns',
  'campaign.update': 'Edit campaigns',
  'campaign.delete': 'Delete campaigns',
  'campaign.toggle': 'Start, pause or interrupt campaigns',
  'environment.panic': 'Turn panic mode on or off',
  'report.read': 'Read campaign reports',
};

/** The readable label of an action code, or the code itself for an action this console does not know. */
export const actionLabel = (code: string): string =>
  (ACTIONS as readonly string[]).includes(code) ? ACTION_LABELS[code as Action] : code;

/**
 * An action code that a narrow column may wrap only after a dot ("campaign." / "toggle"), never inside a word:
 * a `<wbr>` follows each dot, and `code.action` (styles.ts) turns off the `overflow-wrap: anywhere` of code.
 */
export const actionCode = (code: string): TemplateResult => {
  const parts = code.split('.');
  return html`<code class="hint action"
    >${parts.map((part, index) => (index < parts.length - 1 ? html`${part}.<wbr />` : part))}</code
  >`;
};

/** A date-time for a table cell: local, short, or "—" when unknown. */
export const shortDateTime = (iso: string | null): string => {
  if (iso === null) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};
