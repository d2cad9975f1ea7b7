// The token of an invitation link that asks its person to join (shell/person-link.ts found out) while they sign
// in: kept in this tab's sessionStorage, so that a sign-in (a password, or a single sign-on that leaves the page
// for the provider and comes back) returns to the invitation. It never goes into a URL the server sees, so no
// server log holds it.

const KEY = 'feature-console.join-token';

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
