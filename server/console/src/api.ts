// The console's one way to the server: the operator routes (§13.8) and the remote control campaign routes under
// /admin/v1/environments/{envId}, authorized by the session cookie the browser sends by itself, with the
// session's CSRF token on every change. Errors come back as `ConsoleApiError`, whose `fields` map a field path
// (`variation_groups[0].name`) to the server's message, so a form shows each next to its input.

/** A PROTOCOL.md §2.4 error as the console shows it. */
export class ConsoleApiError extends Error {
  /** The HTTP status (0: the server could not be reached). */
  readonly status: number;
  /** The catalogue code (`invalid_body`, `conflict`…), or `network`. */
  readonly code: string;
  /** Messages by field path, from the error's details. */
  readonly fields: ReadonlyMap<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    fields: ReadonlyMap<string, string> = new Map(),
  ) {
    super(message);
    this.name = 'ConsoleApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

/**
 * Called when the session is over: the server said so (401, `ended`), or this console ended every session,
 * its own included (`ended-all`). The app shows the sign-in screen.
 */
export type SignedOutListener = (why: 'ended' | 'ended-all') => void;

interface ErrorBodyShape {
  message?: unknown;
  code?: unknown;
  details?: unknown;
}

const parseError = async (response: Response): Promise<ConsoleApiError> => {
  let body: ErrorBodyShape = {};
  try {
    body = (await response.json()) as ErrorBodyShape;
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  const fields = new Map<string, string>();
  if (Array.isArray(body.details))
    for (const detail of body.details as unknown[]) {
      if (typeof detail !== 'object' || detail === null) continue;
      const { path, message } = detail as { path?: unknown; message?: unknown };
      if (typeof path === 'string' && typeof message === 'string') fields.set(path, message);
    }
  return new ConsoleApiError(
    response.status,
    typeof body.code === 'string' ? body.code : `http_${response.status}`,
    typeof body.message === 'string' ? body.message : `The server answered ${response.status}.`,
    fields,
  );
};

/** A GET answer with the ETag it came with, to send back in If-None-Match on the next read. */
export interface TaggedAnswer<T> {
  value: T;
  /** The answer's ETag ('' when it had none). */
  etag: string;
}

/** The session's answer: its CSRF token and end, and who signed in (null: the operator key). */
export interface SessionAnswer {
  csrf_token: string;
  expires_at: string;
  user?: {
    id: string;
    email: string;
    name: string;
    accounts: Array<{ account_id: string; role: 'admin' | 'editor' | 'viewer' }>;
  } | null;
}

/** An account whose people may sign in through its OpenID provider: the sign-in screen links to `start_path`. */
export interface SingleSignOnOffer {
  account_id: string;
  name: string;
  start_path: string;
}

/** What an invitation or reset link asks of the person. */
export interface NewPassword {
  token: string;
  password: string;
  name?: string;
}

/** Calls the server for the console. */
export class ConsoleApi {
  #csrf = '';
  #onSignedOut: SignedOutListener = () => undefined;

  /** Uses the CSRF token of a session (from sign-in or from `readSession`). */
  useSession(session: SessionAnswer): void {
    this.#csrf = session.csrf_token;
  }

  /** Who to tell when a call finds the session over. */
  onSignedOut(listener: SignedOutListener): void {
    this.#onSignedOut = listener;
  }

  /** The current session, or null when signed out. */
  async readSession(): Promise<SessionAnswer | null> {
    try {
      const session = await this.#call<SessionAnswer>('GET', '/admin/session', undefined, false);
      this.useSession(session);
      return session;
    } catch (error) {
      if (error instanceof ConsoleApiError && error.status === 401) return null;
      throw error;
    }
  }

  /** Signs in with the operator key, a sign-in link token, or an email and password. */
  async signIn(
    credential: { operator_key: string } | { sign_in_link: string } | { email: string; password: string },
  ): Promise<SessionAnswer> {
    const session = await this.#call<SessionAnswer>('POST', '/admin/session', credential, false);
    this.useSession(session);
    return session;
  }

  /** The accounts that offer single sign-on, by name (public: asked before anyone signs in). */
  async singleSignOnOffers(): Promise<SingleSignOnOffer[]> {
    return (await this.#call<{ items: SingleSignOnOffer[] }>('GET', '/admin/sso', undefined, false)).items;
  }

  /** Which screen an invitation link opens (public: asked before anyone signs in; the token in the body). */
  async invitationScreen(token: string): Promise<'choose_password' | 'join'> {
    const answer = await this.#call<{ screen: 'choose_password' | 'join' }>(
      'POST',
      '/admin/session/invitation/peek',
      { token },
      false,
    );
    return answer.screen;
  }

  /** Uses an invitation or reset link: sets the password and signs in. */
  async useLink(kind: 'invitation' | 'reset', body: NewPassword): Promise<SessionAnswer> {
    const path = kind === 'invitation' ? '/admin/session/invitation' : '/admin/session/password-reset';
    const session = await this.#call<SessionAnswer>('POST', path, body, false);
    this.useSession(session);
    return session;
  }

  /** Ends the session on the server. */
  async signOut(): Promise<void> {
    await this.#call<null>('DELETE', '/admin/session', undefined, false);
    this.#csrf = '';
  }

  /** Ends every console session, this one included, and tells the listener; how many sessions ended. */
  async endAllSessions(): Promise<number> {
    const answer = await this.#call<{ ended: number }>('DELETE', '/admin/v1/console/sessions');
    this.#csrf = '';
    this.#onSignedOut('ended-all');
    return answer.ended;
  }

  /** GET an operator route (`path` after /admin/v1). */
  get<T>(path: string): Promise<T> {
    return this.#call<T>('GET', `/admin/v1${path}`);
  }

  /**
   * GET an operator route, sending `etag` (when not '') in If-None-Match: null when the server answers 304 (the
   * copy held is current: nothing to parse, nothing to show anew), else the answer and its ETag.
   */
  async getIfChanged<T>(path: string, etag: string): Promise<TaggedAnswer<T> | null> {
    const response = await this.#send('GET', `/admin/v1${path}`, undefined, true, etag);
    if (response.status === 304) return null;
    return { value: (await response.json()) as T, etag: response.headers.get('etag') ?? '' };
  }

  /** POST to an operator route. */
  post<T>(path: string, body?: unknown): Promise<T> {
    return this.#call<T>('POST', `/admin/v1${path}`, body);
  }

  /** PATCH an operator route. */
  patch<T>(path: string, body: unknown): Promise<T> {
    return this.#call<T>('PATCH', `/admin/v1${path}`, body);
  }

  /** PUT to an operator route. */
  put<T>(path: string, body: unknown): Promise<T> {
    return this.#call<T>('PUT', `/admin/v1${path}`, body);
  }

  /** DELETE an operator route. */
  delete(path: string): Promise<null> {
    return this.#call<null>('DELETE', `/admin/v1${path}`);
  }

  async #call<T>(method: string, path: string, body?: unknown, watchSession = true): Promise<T> {
    const response = await this.#send(method, path, body, watchSession, '');
    if (response.status === 204) return null as T;
    return (await response.json()) as T;
  }

  /** Sends a call; resolves to a 2xx or 304 answer, throws ConsoleApiError for any other. */
  async #send(
    method: string,
    path: string,
    body: unknown,
    watchSession: boolean,
    etag: string,
  ): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET') headers['x-csrf-token'] = this.#csrf;
    // Set by hand, so the browser hands the 304 over as it is (the console keeps the copy itself).
    if (etag !== '') headers['if-none-match'] = etag;
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        headers,
        credentials: 'same-origin',
        cache: 'no-store',
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      throw new ConsoleApiError(0, 'network', 'The server cannot be reached: is it running?');
    }
    if (!response.ok && response.status !== 304) {
      const error = await parseError(response);
      if (watchSession && response.status === 401) this.#onSignedOut('ended');
      throw error;
    }
    return response;
  }
}

/** Path segment encoding for ids in URLs. */
export const seg = (value: string): string => encodeURIComponent(value);
