// Who passed a request's operator check (operator-auth.ts), kept for the handlers that answer differently by
// caller: the account list (a person sees the accounts they belong to) and the user routes.
import type { FastifyRequest } from 'fastify';
import type { OperatorKey } from './operator-keys.js';
import type { UserRecord } from '../store/user-store.js';

/** Who passed the operator check: the operator key (sent, or behind a console session), or a person. */
export type OperatorCaller =
  | {
      kind: 'operator_key';
      /** The operator key behind the call: the key sent, or the one that opened the session. */
      key: OperatorKey;
      /** The console session's id, when the call came with one. */
      sessionId: string | null;
    }
  | {
      kind: 'user';
      user: UserRecord;
      /** A person calls only through a console session. */
      sessionId: string;
    };

const callers = new WeakMap<FastifyRequest, OperatorCaller>();

/** Remembers who passed `request`'s check. */
export const setRequestCaller = (request: FastifyRequest, caller: OperatorCaller): void => {
  callers.set(request, caller);
};

/** Who passed `request`'s operator check; throws when no check ran (a wiring bug, answered 500). */
export const requestCaller = (request: FastifyRequest): OperatorCaller => {
  const caller = callers.get(request);
  if (caller === undefined) throw new Error('requestCaller: no operator check ran for this request');
  return caller;
};
