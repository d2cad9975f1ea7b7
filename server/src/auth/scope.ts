// Token scopes (PROTOCOL.md §13.2): space-separated actions, then `env:<envId>` per environment or `env:*` for
// every environment of the account. A token request may narrow its access's rights, never widen them.
import { ACTIONS, type Action } from 'feature-ts/protocol';

/** Rights as sets: the actions, and the environment ids or `*` for all of the account's. */
export interface Rights {
  actions: ReadonlySet<Action>;
  environments: ReadonlySet<string> | '*';
}

const isAction = (value: string): value is Action => (ACTIONS as readonly string[]).includes(value);

/** The rights of an access: an empty environment list means all of the account's, later ones included. */
export const accessRights = (access: {
  actions: readonly Action[];
  environments: readonly string[];
}): Rights => ({
  actions: new Set(access.actions),
  environments: access.environments.length === 0 ? '*' : new Set(access.environments),
});

/** The scope string of `rights`, actions in the catalogue's order, then environments sorted. */
export const formatScope = (rights: Rights): string => {
  const actions = ACTIONS.filter((action) => rights.actions.has(action));
  const environments =
    rights.environments === '*' ? ['env:*'] : [...rights.environments].sort().map((id) => `env:${id}`);
  return [...actions, ...environments].join(' ');
};

/** Why a requested scope cannot be granted; the message becomes the `invalid_scope` description. */
export class ScopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScopeError';
  }
}

/**
 * The rights a token request gets: all of the access's for an absent, empty or `*` scope; otherwise the
 * actions and environments it names, each of which the access must hold (`accountEnvironments` says which
 * environments exist, for an access over all of them). Naming no action keeps the access's actions, naming no
 * environment keeps its environments. Throws ScopeError naming the first item that cannot be granted.
 */
export const narrowRights = (
  access: Rights,
  requested: string | undefined,
  accountEnvironments: ReadonlySet<string>,
): Rights => {
  const items = (requested ?? '').split(' ').filter((item) => item !== '');
  if (items.length === 0 || (items.length === 1 && items[0] === '*')) return access;
  const actions = new Set<Action>();
  const environments = new Set<string>();
  let allEnvironments = false;
  for (const item of items) {
    if (item.startsWith('env:')) {
      const envId = item.slice(4);
      if (envId === '*') {
        if (access.environments !== '*')
          throw new ScopeError('env:* asks for every environment; this access holds only some of them.');
        allEnvironments = true;
      } else if (
        access.environments === '*' ? !accountEnvironments.has(envId) : !access.environments.has(envId)
      )
        throw new ScopeError(`${item.slice(0, 80)} is not an environment this access holds.`);
      else environments.add(envId);
    } else if (isAction(item)) {
      if (!access.actions.has(item)) throw new ScopeError(`${item} is not an action this access grants.`);
      actions.add(item);
    } else
      throw new ScopeError(
        `${JSON.stringify(item.slice(0, 80))} is neither an action (${ACTIONS.join(', ')}) nor env:<id> or env:*.`,
      );
  }
  return {
    actions: actions.size === 0 ? access.actions : actions,
    environments: allEnvironments ? '*' : environments.size === 0 ? access.environments : environments,
  };
};

/** The rights a stored scope string gives (the inverse of formatScope; unknown items are ignored). */
export const parseScope = (scope: string): Rights => {
  const actions = new Set<Action>();
  const environments = new Set<string>();
  let all = false;
  for (const item of scope.split(' ')) {
    if (item === 'env:*') all = true;
    else if (item.startsWith('env:')) environments.add(item.slice(4));
    else if (isAction(item)) actions.add(item);
  }
  return { actions, environments: all ? '*' : environments };
};
