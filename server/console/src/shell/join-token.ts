// The token of a join link (`/admin/#join=…`) while its person signs in: out of the address bar and the history
// at once, and kept in this tab's sessionStorage, so that a sign-in (a password, or a single sign-on that
// leaves the page for the provider and comes back) returns to the invitation. It never goes into a URL the
// server sees, so no server log holds it.

const KEY = 'feature-console.join-token';
const SHAPE = /^#join=([A-Za-z0-9_-]+)$/;

/** Takes a join link's token out of the address (keeping it for this tab); null when the page has none. */
export const takeJoinTokenFromAddress = (replaceWith: string): string | null => {
  const token = SHAPE.exec(location.hash)?.[1];
  if (token === undefined) return null;
  history.replaceState(null, '', `${location.pathname}${replaceWith}`);
  keepJoinToken(token);
  return token;
};

/** Keeps `token` for this tab. */
export const keepJoinToken = (token: string): void => {
  try {
    sessionStorage.setItem(KEY, token);
  } catch {
    // Storage refused (a private mode): the token still lives in the page until it reloads.
  }
};

/** The kept token, or null. */
export const keptJoinToken = (): string | null => {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
};

/** Forgets the kept token (answered, or left). */
export const forgetJoinToken = (): void => {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
};
