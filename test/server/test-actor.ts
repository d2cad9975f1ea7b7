// The audit log's actor for what tests store directly (issue 36): every store change needs one (recordAudit
// throws without), and a test seeding data is no request and no CLI.
import { actingAs, insideActorContext, type Actor } from '../../server/src/audit/actor.js';

/** Who the audit log names for a change a test makes on the store directly (not through a route). */
export const TEST_ACTOR: Actor = { kind: 'cli', id: null, label: 'test', address: null };

/** The property of an `auditedByTests` store that holds the store itself, whose changes need an actor. */
export const UNAUDITED = Symbol('the store without the test actor');

/** The store under an `auditedByTests` one (itself when it is not one). */
export const unaudited = <S extends object>(store: S): S =>
  ((store as Record<symbol, unknown>)[UNAUDITED] as S | undefined) ?? store;

/**
 * The store with each direct call made as TEST_ACTOR when no request or actingAs decided who acts: a test
 * seeding the store needs no actor of its own, while a route's call (inside a request, named or not) still
 * records its own caller, or throws when no check named one, as in production.
 */
export const auditedByTests = <S extends object>(store: S): S =>
  new Proxy(store, {
    get(target, property, receiver) {
      if (property === UNAUDITED) return target;
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown =>
        insideActorContext()
          ? (Reflect.apply(value, target, args) as unknown)
          : actingAs(TEST_ACTOR, (): unknown => Reflect.apply(value, target, args));
    },
  });
