// An account's user routes (issue 36): members listed, invited, given another role, removed, and sent a
// password reset link; for the account's admins and the operator key (config.role, auth/route-roles.ts). Links
// are in the answer once: no mail server, the admin gives them on. The store keeps the account's last admin.
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { People } from '../auth/people.js';
import { requestCaller } from '../auth/request-caller.js';
import { needs } from '../auth/route-roles.js';
import { InputError, errors } from '../errors.js';
import type { AccountStore } from '../store/account-store.js';
import {
  AlreadyMemberError,
  LastAdminError,
  NotTheirAdminError,
  type MemberRecord,
  type Role,
  type UserStore,
} from '../store/user-store.js';
import { linkAnswer, memberAnswer, notYetMember } from '../services/member-answers.js';
import { userRouteSchemas as doc } from './user-schemas.js';

const PREFIX = '/admin/v1/accounts/:accountId/users';

/** Runs a change of members: the store's refusals become 409 and 400 with its message. */
const memberErrors = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (error instanceof LastAdminError || error instanceof AlreadyMemberError)
      throw errors.conflict(error.message);
    if (error instanceof InputError) throw errors.invalidBody('(body)', error.message);
    throw error;
  }
};

/** The user routes, registered by app.ts in the operator scope. */
export const userRoutes: FastifyPluginCallback<{
  ctx: AppContext<AccountStore & UserStore>;
  people: People;
}> = (scope, { ctx, people }, registered) => {
  const accountOf = async (request: FastifyRequest): Promise<string> => {
    const { accountId } = request.params as { accountId: string };
    if ((await ctx.store.getAccount(accountId)) === null)
      throw errors.notFound(request.method, `account ${accountId.slice(0, 64)}`);
    return accountId;
  };
  const memberOf = async (request: FastifyRequest): Promise<MemberRecord> => {
    const accountId = await accountOf(request);
    const { userId } = request.params as { userId: string };
    const found = await ctx.store.getMember(accountId, userId);
    if (found === null) throw errors.notFound(request.method, `user ${userId.slice(0, 64)}`);
    return found;
  };

  scope.get(PREFIX, needs('admin', doc.listUsers), async (request) => ({
    items: (await ctx.store.listMembers(await accountOf(request))).map(memberAnswer),
  }));
  scope.post(PREFIX, needs('admin', doc.inviteUser), async (request, reply) => {
    const accountId = await accountOf(request);
    const { email, role } = request.body as { email: string; role: Role };
    const { invitation, link } = await memberErrors(() => people.invite(accountId, email.trim(), role));
    // The same answer whether the email had a user here or not: a pending member shows only what was typed.
    return reply.code(201).send({ user: memberAnswer(invitation.after), link: linkAnswer(link) });
  });
  scope.patch(`${PREFIX}/:userId`, needs('admin', doc.changeRole), async (request) => {
    const member = await memberOf(request);
    const { role } = request.body as { role: Role };
    const changed = await memberErrors(() => ctx.store.setMemberRole(member.accountId, member.userId, role));
    if (changed === null) throw errors.notFound(request.method, `user ${member.userId}`);
    return memberAnswer(changed.after);
  });
  scope.delete(`${PREFIX}/:userId`, needs('admin', doc.removeUser), async (request, reply) => {
    const member = await memberOf(request);
    const removed = await memberErrors(() => ctx.store.removeMember(member.accountId, member.userId));
    if (removed === null) throw errors.notFound(request.method, `user ${member.userId}`);
    return reply.code(204).send();
  });
  scope.post(`${PREFIX}/:userId/reset-link`, needs('admin', doc.resetLink), async (request, reply) => {
    const member = await memberOf(request);
    // Someone who has not answered their invitation gets a new invitation, not a reset link: the same refusal
    // whether they are a new person or one who already had a user (pending), so it tells the admin nothing.
    if (!member.active) throw errors.conflict(notYetMember(member.email));
    const caller = requestCaller(request);
    // A reset link signs in as the person everywhere they are a member: an admin of one of their accounts could
    // otherwise take over another account through them. A person's admins may reset them only where they are
    // admin of every account the person is in (the operator key and the CLI always may); the store checks it
    // in the transaction that makes the link, so a join answered meanwhile is seen.
    const madeBy = caller.kind === 'user' ? caller.user.id : null;
    const link = await people.resetLink(member.accountId, member.userId, madeBy).catch((error: unknown) => {
      if (error instanceof NotTheirAdminError) throw errors.insufficientRole(error.message);
      throw error;
    });
    if (link === null) throw errors.notFound(request.method, `user ${member.userId}`);
    return reply.code(201).send(linkAnswer(link));
  });
  registered();
};
