// The one-time link the page was opened with (`/admin/#invite=…` or `/admin/#reset=…`): out of the address bar
// and the history at once. An invitation link does not say whether it lets a new person choose a password or
// asks someone who already has a user to join (so that the admin who made it learns nothing): the server is
// asked, with the token in a POST body and no session, which screen it opens. A join link's token waits in this
// tab (shell/join-token.ts) while its person signs in.
import type { ConsoleApi } from '../api.js';
import { keepJoinToken } from './join-token.js';

/** What the page's link opens: a password screen, the join screen, a refusal to show, or nothing. */
export type OpenedLink =
  | { kind: 'password'; link: { kind: 'invitation' | 'reset'; token: string } }
  | { kind: 'join'; token: string }
  | { kind: 'refused'; message: string }
  | { kind: 'none' };

/** Takes the page's one-time link out of the address (replaced by `replaceWith`), and says what it opens. */
export const takePersonLink = async (api: ConsoleApi, replaceWith: string): Promise<OpenedLink> => {
  const found = /^#(invite|reset)=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (found === null) return { kind: 'none' };
  history.replaceState(null, '', `${location.pathname}${replaceWith}`);
  const token = found[2] ?? '';
  if (found[1] === 'reset') return { kind: 'password', link: { kind: 'reset', token } };
  try {
    if ((await api.invitationScreen(token)) === 'choose_password')
      return { kind: 'password', link: { kind: 'invitation', token } };
    keepJoinToken(token);
    return { kind: 'join', token };
  } catch (error) {
    return { kind: 'refused', message: error instanceof Error ? error.message : String(error) };
  }
};
