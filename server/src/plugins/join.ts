// The join routes (issue 36, security review): a person who already had a user, invited to another account,
// answers its join link signed in as themselves; until then their membership is pending and grants nothing.
// In the operator scope (cookie session and CSRF token, as every console call), for a person's session only:
// the operator key is no person to join anything. The token is in the body, never in the URL.
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { People } from '../auth/people.js';
import { requestCaller } from '../auth/request-caller.js';
import { needs } from '../auth/route-roles.js';
import { errors } from '../errors.js';
import { joinRouteSchemas as doc } from './join-schemas.js';

const PREFIX = '/admin/v1/console/join';

/** The signed-in person's user id; the operator key is refused. */
const personOf = (request: FastifyRequest): string => {
  const caller = requestCaller(request);
  if (caller.kind !== 'user') throw errors.insufficientRole("a person's console session");
  return caller.user.id;
};

/** The join routes, registered by app.ts in the operator scope. */
export const joinRoutes: FastifyPluginCallback<{ people: People }> = (scope, { people }, registered) => {
  scope.post(`${PREFIX}/peek`, needs('signed_in', doc.peekJoin), async (request) => {
    const userId = personOf(request);
    const { token } = request.body as { token: string };
    const invitation = await people.peekJoin(token, userId);
    return {
      account_id: invitation.accountId,
      account_name: invitation.accountName,
      role: invitation.role,
      expires_at: new Date(invitation.expiresMs).toISOString(),
    };
  });
  scope.post(PREFIX, needs('signed_in', doc.answerJoin), async (request) => {
    const userId = personOf(request);
    const { token, answer } = request.body as { token: string; answer: 'join' | 'decline' };
    const { accountId } = await people.answerJoin(token, userId, answer);
    return { account_id: accountId, answer };
  });
  registered();
};
