// Who makes a change, for the audit log (issue 36). Each route's credential check names its caller (a person,
// a remote control access, the operator key); the CLI and the server's own upkeep name themselves. The store
// records the actor inside each change's own transaction, so the actor travels with the request's async
// context rather than through every store signature: a change can then never be stored under the wrong
// name, and a store change with no actor at all is a wiring bug the audit tests catch (recordAudit throws).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The kinds of caller that can change something. */
export type ActorKind = 'user' | 'access' | 'operator_key' | 'cli' | 'system' | 'anonymous';

/** Who made a change, as the audit log keeps it. */
export interface Actor {
  kind: ActorKind;
  /** The user id, the access's client id or the operator key's fingerprint; null for the CLI, the server and no one. */
  id: string | null;
  /** What people read: the user's email, the client id, "operator key 1a2b3c4d", "CLI (alice)", "server". */
  label: string;
  /** The caller's address (the request's, after TRUST_PROXY); null for the CLI and the server. */
  address: string | null;
}

const requestActors = new WeakMap<FastifyRequest, Actor>();
// null: a request no credential check named (its changes have no actor, whatever context it was started in).
const current = new AsyncLocalStorage<Actor | null>();

/** Names the caller of `request`: called by the credential check that let it in. */
export const setRequestActor = (request: FastifyRequest, actor: Actor): void => {
  requestActors.set(request, actor);
};

/** The caller a credential check named for `request`, or null (a route open to anyone). */
export const requestActor = (request: FastifyRequest): Actor | null => requestActors.get(request) ?? null;

/** Runs `work` with `actor` as the maker of every change it stores (the CLI, the server's upkeep, tests). */
export const actingAs = <T>(actor: Actor, work: () => T): T => current.run(actor, work);

/** Whether a request or `actingAs` decided who acts now (even no one): false outside both. */
export const insideActorContext = (): boolean => current.getStore() !== undefined;

/** The actor of the change being stored now, or null outside any request or `actingAs`. */
export const currentActor = (): Actor | null => current.getStore() ?? null;

/** The server itself: retention purges and other upkeep no person asked for. */
export const SERVER_ACTOR: Actor = { kind: 'system', id: null, label: 'server', address: null };

/**
 * Makes each request's actor current while its handler runs. Registered at the root: a root preHandler runs
 * after every onRequest credential check and after the body is parsed, and everything the handler then awaits
 * inherits the context (the chain continues inside `run`).
 */
export const carryRequestActors = (app: FastifyInstance): void => {
  app.addHook('preHandler', (request, _reply, done) => {
    // A request no check named runs with no actor, never with one its server happened to be started under.
    current.run(requestActors.get(request) ?? null, done);
  });
};
