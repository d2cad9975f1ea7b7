// Test support for people (issue 36): calls to a running app as the operator key, as a console session or as no
// one, and a person made a member of an account the way a person becomes one (invited with the operator key,
// then the invitation accepted: a session with its cookie and CSRF token).
import assert from 'node:assert/strict';
import type { Running } from './support.js';

/** An answer, its body parsed when it is JSON. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: Record<string, unknown>;
}

/** A console session as a browser holds it. */
export interface Session {
  cookie: string;
  csrf: string;
}

/** Who calls: the operator key (Bearer), a console session, or no one. */
export type Caller = { bearer: string } | { session: Session } | null;

/** Calls `path` on `server` as `caller`, with a JSON body when one is given. */
export const call = async (
  server: Running,
  method: string,
  path: string,
  caller: Caller,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> => {
  const auth: Record<string, string> =
    caller === null
      ? {}
      : 'bearer' in caller
        ? { authorization: `Bearer ${caller.bearer}` }
        : { cookie: caller.session.cookie, 'x-csrf-token': caller.session.csrf };
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...auth,
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    // Not JSON (a page).
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
};

/** The session an answer that signed in gives (its Set-Cookie and CSRF token). */
export const sessionOf = (answer: Answer): Session => {
  assert.equal(answer.status, 200, answer.text);
  const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  assert.match(cookie, /^feature_console=fcs_/);
  return { cookie, csrf: String(answer.body.csrf_token) };
};

/** The token of a link path (`/admin/#invite=…`). */
export const linkToken = (path: unknown): string => {
  assert.equal(typeof path, 'string');
  return String(path).replace(/^\/admin\/#(invite|reset)=/, '');
};

/**
 * Makes `email` a member of `accountId` with `role` through the routes: invited with the operator key, the
 * invitation accepted with `password`; the new member's session and user id.
 */
export const addPerson = async (
  server: Running,
  operatorKey: string,
  accountId: string,
  email: string,
  role: 'admin' | 'editor' | 'viewer',
  password = 'a long enough password',
): Promise<{ session: Session; userId: string }> => {
  const invited = await call(
    server,
    'POST',
    `/admin/v1/accounts/${accountId}/users`,
    { bearer: operatorKey },
    {
      email,
      role,
    },
  );
  assert.equal(invited.status, 201, invited.text);
  const link = invited.body.link as { path: string };
  const user = invited.body.user as { id: string };
  // The link looks the same for everyone: the server says which screen it opens, as it tells the console.
  const screen = await call(server, 'POST', '/admin/session/invitation/peek', null, {
    token: linkToken(link.path),
  });
  assert.equal(screen.status, 200, screen.text);
  if (screen.body.screen === 'join') {
    // A person who already has a user: they sign in as themselves and join.
    const session = await signInAs(server, email, password);
    const joined = await call(
      server,
      'POST',
      '/admin/v1/console/join',
      { session },
      {
        token: linkToken(link.path),
        answer: 'join',
      },
    );
    assert.equal(joined.status, 200, joined.text);
    return { session, userId: user.id };
  }
  const accepted = await call(server, 'POST', '/admin/session/invitation', null, {
    token: linkToken(link.path),
    password,
    name: email.split('@')[0],
  });
  return { session: sessionOf(accepted), userId: user.id };
};

/** Signs in with an email and password; the session. */
export const signInAs = async (server: Running, email: string, password: string): Promise<Session> =>
  sessionOf(await call(server, 'POST', '/admin/session', null, { email, password }));
