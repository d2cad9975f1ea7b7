// Which screen an invitation link opens (security review of issue 36): an invitation of a new person and one of
// a person who already has a user look alike, so that the admin who makes them learns nothing; the console asks
// here whether to show the password screen or the join screen. Beside the session routes (console.ts): no
// session is needed, as a new person has none; it changes nothing and answers only this site's pages.
import type { FastifyPluginCallback } from 'fastify';
import type { People } from '../auth/people.js';
import { errors } from '../errors.js';
import { invitationScreenSchema } from './invitation-screen-schemas.js';

/** Registers POST /admin/session/invitation/peek; app.ts registers it with the console (an operator key). */
export const invitationScreenRoute: FastifyPluginCallback<{ people: People }> = (
  app,
  { people },
  registered,
) => {
  app.post(
    '/admin/session/invitation/peek',
    {
      ...invitationScreenSchema,
      onRequest: (request, _reply, done) =>
        done(request.headers['sec-fetch-site'] === 'cross-site' ? errors.crossSiteSignIn() : undefined),
    },
    async (request, reply) => {
      const { token } = request.body as { token: string };
      const screen = await people.invitationScreen(token);
      return reply.header('cache-control', 'no-store').send({ screen });
    },
  );
  registered();
};
