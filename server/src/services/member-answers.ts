// Members as the user routes (plugins/users.ts) and the CLI (`feature-server user …`) answer them.
import type { MemberRecord } from '../store/user-store.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** A member as the user routes answer it. */
export const memberAnswer = (member: MemberRecord) => ({
  id: member.userId,
  email: member.email,
  name: member.name,
  role: member.role,
  active: member.active,
  created_at: iso(member.createdMs),
  last_sign_in_at: member.lastSignInMs === null ? null : iso(member.lastSignInMs),
});

/** A one-time link as the user routes answer it. */
export const linkAnswer = (link: { path: string; expiresMs: number }) => ({
  path: link.path,
  expires_at: iso(link.expiresMs),
});

/** The refusal of a reset link for a member who has not accepted their invitation (nor answered it) yet. */
export const notYetMember = (email: string): string =>
  `${email.slice(0, 254)} has not accepted their invitation yet: invite them again for a new invitation link.`;
