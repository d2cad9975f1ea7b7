// Which account role a person signed in through single sign-on gets (issue 36): each group of the ID token's
// groups claim and the domain of their verified email are looked up in the account's mappings, and the
// highest role among the matches wins (a person in "marketing" and "feature-admins" is an admin). No match: no
// role, and the sign-in is refused (an unknown person of the provider gets nothing by default).
import type { SsoSettings } from '../store/sso-store.js';
import { ROLES, type Role } from '../store/user-store.js';

/** What the ID token says about the person, as far as roles go. */
export interface SsoPerson {
  /** The verified email. */
  email: string;
  /** The groups claim's value, whatever its shape (a list of strings is expected; anything else holds none). */
  groups: unknown;
}

/** The groups a claim's value holds: a list of strings, or one string; anything else holds none. */
export const groupsOf = (claim: unknown): string[] => {
  if (typeof claim === 'string') return [claim];
  if (!Array.isArray(claim)) return [];
  return claim.filter((group): group is string => typeof group === 'string');
};

/** The domain of an email, lower case (after the last `@`); '' when it has none. */
export const emailDomain = (email: string): string => {
  const at = email.lastIndexOf('@');
  return at === -1 ? '' : email.slice(at + 1).toLowerCase();
};

/**
 * The role of `person` under `settings`' mappings: the highest of the roles their groups and email domain map
 * to, or null when none does. Group names compare exactly (providers' names are case-sensitive); domains
 * case-insensitively.
 */
export const roleFor = (
  settings: Pick<SsoSettings, 'groupRoles' | 'domainRoles'>,
  person: SsoPerson,
): Role | null => {
  const groups = new Set(groupsOf(person.groups));
  const domain = emailDomain(person.email);
  const matched = [
    ...settings.groupRoles.filter((mapping) => groups.has(mapping.group)).map((mapping) => mapping.role),
    ...settings.domainRoles
      .filter((mapping) => domain !== '' && mapping.domain.toLowerCase() === domain)
      .map((mapping) => mapping.role),
  ];
  let best: Role | null = null;
  for (const role of matched) if (best === null || ROLES.indexOf(role) > ROLES.indexOf(best)) best = role;
  return best;
};
