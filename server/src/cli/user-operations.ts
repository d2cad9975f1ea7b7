// The CLI's user operations (`feature-server user …`) on a store it opened itself, and through a running
// server's user routes: both find a member by id or by email, and answer as the routes do. Changes made on the
// store are made as the CLI (audit/actor.ts), named by the operating-system user who ran it.
import { userInfo } from 'node:os';
import { actingAs, type Actor } from '../audit/actor.js';
import { ConsoleSessions } from '../auth/console-sessions.js';
import { People } from '../auth/people.js';
import { InputError } from '../errors.js';
import { linkAnswer, memberAnswer, notYetMember } from '../services/member-answers.js';
import type { Store } from '../store/store.js';
import { AlreadyMemberError, LastAdminError, type MemberRecord } from '../store/user-store.js';
import { CliError, unknownAccount, unknownUser } from './cli-error.js';
import type { MemberView, Operations } from './operations.js';

type UserOperations = Pick<
  Operations,
  'listUsers' | 'inviteUser' | 'setUserRole' | 'removeUser' | 'userResetLink'
>;

/** The CLI as the maker of a change. */
export const cliActor = (): Actor => {
  let name = 'unknown';
  try {
    name = userInfo().username;
  } catch {
    // No user name (a container's numeric user): the CLI all the same.
  }
  return { kind: 'cli', id: null, label: `CLI (${name})`, address: null };
};

/** Whether `member` is the one `user` names (its id, or its email in any case). */
const names = (member: { id: string; email: string }, user: string): boolean =>
  member.id === user || member.email === user.toLowerCase();

/** The store's refusals as the CLI says them. */
const refusals = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (error instanceof LastAdminError || error instanceof AlreadyMemberError)
      throw new CliError('conflict', error.message);
    if (error instanceof InputError) throw new CliError('invalid_input', error.message);
    throw error;
  }
};

/** User operations on `store`. */
export const storeUserOperations = (store: Store): UserOperations => {
  const people = new People(store, new ConsoleSessions(store));
  const member = async (accountId: string, user: string): Promise<MemberRecord> => {
    if ((await store.getAccount(accountId)) === null) throw unknownAccount(accountId);
    const found = (await store.listMembers(accountId)).find((m) =>
      names({ id: m.userId, email: m.email }, user),
    );
    if (found === undefined) throw unknownUser(accountId, user);
    return found;
  };
  return {
    listUsers: async (accountId) => {
      if ((await store.getAccount(accountId)) === null) throw unknownAccount(accountId);
      return (await store.listMembers(accountId)).map(memberAnswer);
    },
    inviteUser: (accountId, email, role) =>
      actingAs(cliActor(), () =>
        refusals(async () => {
          if ((await store.getAccount(accountId)) === null) throw unknownAccount(accountId);
          const { invitation, link } = await people.invite(accountId, email, role);
          return { user: memberAnswer(invitation.after), link: linkAnswer(link) };
        }),
      ),
    setUserRole: (accountId, user, role) =>
      actingAs(cliActor(), () =>
        refusals(async () => {
          const found = await member(accountId, user);
          const changed = await store.setMemberRole(accountId, found.userId, role);
          if (changed === null) throw unknownUser(accountId, user);
          return memberAnswer(changed.after);
        }),
      ),
    removeUser: (accountId, user) =>
      actingAs(cliActor(), () =>
        refusals(async () => {
          const found = await member(accountId, user);
          if ((await store.removeMember(accountId, found.userId)) === null)
            throw unknownUser(accountId, user);
        }),
      ),
    userResetLink: (accountId, user) =>
      actingAs(cliActor(), async () => {
        const found = await member(accountId, user);
        // As the HTTP route: someone who has not accepted (a new person) or answered (pending) gets a new
        // invitation, not a reset link, in the same words whichever they are.
        if (!found.active) throw new CliError('conflict', notYetMember(found.email));
        const link = await people.resetLink(accountId, found.userId, null);
        if (link === null) throw unknownUser(accountId, user);
        return linkAnswer(link);
      }),
  };
};

/** What the operator client calls a route with (operator-client.ts's `call`). */
type Call = (request: {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  notFound?: () => CliError;
}) => Promise<Record<string, unknown>>;

/** User operations through a running server's user routes, with the operator client's `call`. */
export const clientUserOperations = (call: Call): UserOperations => {
  const enc = encodeURIComponent;
  const base = (accountId: string): string => `/accounts/${enc(accountId)}/users`;
  const list = async (accountId: string): Promise<MemberView[]> =>
    (await call({ method: 'GET', path: base(accountId), notFound: () => unknownAccount(accountId) }))
      .items as MemberView[];
  const idOf = async (accountId: string, user: string): Promise<string> => {
    const found = (await list(accountId)).find((m) => names(m, user));
    if (found === undefined) throw unknownUser(accountId, user);
    return found.id;
  };
  return {
    listUsers: list,
    inviteUser: async (accountId, email, role) => {
      const answer = await call({
        method: 'POST',
        path: base(accountId),
        body: { email, role },
        notFound: () => unknownAccount(accountId),
      });
      return answer as unknown as Awaited<ReturnType<UserOperations['inviteUser']>>;
    },
    setUserRole: async (accountId, user, role) => {
      const id = await idOf(accountId, user);
      return (await call({
        method: 'PATCH',
        path: `${base(accountId)}/${enc(id)}`,
        body: { role },
        notFound: () => unknownUser(accountId, user),
      })) as unknown as MemberView;
    },
    removeUser: async (accountId, user) => {
      const id = await idOf(accountId, user);
      await call({
        method: 'DELETE',
        path: `${base(accountId)}/${enc(id)}`,
        notFound: () => unknownUser(accountId, user),
      });
    },
    userResetLink: async (accountId, user) => {
      const id = await idOf(accountId, user);
      return (await call({
        method: 'POST',
        path: `${base(accountId)}/${enc(id)}/reset-link`,
        notFound: () => unknownUser(accountId, user),
      })) as unknown as Awaited<ReturnType<UserOperations['userResetLink']>>;
    },
  };
};
