// What a save of the campaign editor came to, in the editor's terms: the sentence that says what a stored
// campaign now does for visitors, the server's refusal split into messages by field path, and the hand-over of
// that sentence from the editor that created a campaign to the editor of the campaign's own route (a new element),
// which says it under its title, in the page's flow.
import type { RemoteCampaign } from 'feature-ts/protocol';
import { ConsoleApiError } from '../api.js';

/** What saving `stored` did, for visitors. */
export const savedMessage = (stored: RemoteCampaign): string =>
  stored.state === 'active'
    ? `Saved “${stored.name}”. Live now: visitors get this at their next decision.`
    : stored.state === 'interrupted'
      ? // Interrupted is final (PROTOCOL.md §13.5): it is never active again.
        `Saved “${stored.name}”. It is interrupted: visitors never get it (create a new campaign to run it).`
      : `Saved “${stored.name}”. It is ${stored.state}: visitors get it once it is active.`;

/** A refused save: the messages by field path, and the summary's [path, message] pairs ('' for no path). */
export const refusalOf = (
  error: unknown,
): { fields: Map<string, string>; summary: Array<[string, string]> } => {
  if (!(error instanceof ConsoleApiError)) return { fields: new Map(), summary: [['', String(error)]] };
  const fields = new Map(error.fields);
  // A taken slug is a 409 without details: it still belongs next to the slug.
  if (fields.size === 0 && error.code === 'conflict' && /\bslug\b/.test(error.message))
    fields.set('slug', error.message);
  return { fields, summary: fields.size === 0 ? [['', error.message]] : [...fields] };
};

// By campaign id: written just before the route changes, read once by the editor the new route makes.
const created = new Map<string, string>();

/** Keeps what creating campaign `id` did, for the editor that opens it next. */
export const handOverCreated = (id: string, message: string): void => void created.set(id, message);

/** What creating campaign `id` did, once (then forgotten), or ''. */
export const takeCreated = (id: string): string => {
  const message = created.get(id) ?? '';
  created.delete(id);
  return message;
};
