// The one-time sign-in link the page was opened with (`/admin/#sign-in=…`, printed by `npx feature-server
// console`): its token is spent by the sign-in whatever the answer, so it leaves the address bar and the history
// at once, and a refusal is said in the product's words. Apart from the shell (console-app.ts), as the person's
// links are (person-link.ts).
import { ConsoleApiError } from '../api.js';

/** Takes the sign-in link's token out of the address (replaced by `replaceWith`); null when there is none. */
export const takeSignInLink = (replaceWith: string): string | null => {
  const token = /^#sign-in=([A-Za-z0-9_-]+)$/.exec(location.hash)?.[1];
  if (token === undefined) return null;
  history.replaceState(null, '', `${location.pathname}${replaceWith}`);
  return token;
};

/** What the sign-in screen says when signing in with the link failed. */
export const signInLinkRefusal = (error: unknown): string =>
  error instanceof ConsoleApiError && error.status === 401
    ? 'This sign-in link was already used or has expired: sign in with the operator key, or get a new link with `npx feature-server console`.'
    : error instanceof Error
      ? error.message
      : String(error);
