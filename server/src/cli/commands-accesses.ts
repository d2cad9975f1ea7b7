// `feature-server access …` (PROTOCOL.md §13.1, §13.9): the accesses of the remote control API. The client
// secret exists only in the answer to `access create`: the store keeps its digest, so it is shown this once.
import { ACTIONS } from 'feature-ts/protocol';
import { InputError } from '../errors.js';
import { required } from './args.js';
import type { CommandContext } from './context.js';
import { listOption, nameOption, positional, shortTime } from './inputs.js';
import type { AccessView } from './operations.js';
import { textTable } from './text-table.js';

const SECRET_WARNING =
  'Save the client secret now: it is shown this once and never again (only its digest is kept). ' +
  'If it is lost, revoke the access and create another.';

const scopeOf = (access: AccessView): string =>
  access.environments.length === 0 ? 'all' : access.environments.join(',');

/** An access as `key: value` lines. */
const accessLines = (access: AccessView): string =>
  [
    `Access:       ${access.id}`,
    `Name:         ${access.name}`,
    `Account:      ${access.account_id}`,
    `Client id:    ${access.client_id}`,
    `Actions:      ${access.actions.join(', ')}`,
    `Environments: ${access.environments.length === 0 ? 'all (later ones included)' : access.environments.join(', ')}`,
    `Created:      ${shortTime(access.created_at)}`,
    `Revoked:      ${access.revoked_at === null ? 'no' : shortTime(access.revoked_at)}`,
  ].join('\n');

/** `access create|list|show|revoke`. */
export const accessCommand = async (context: CommandContext): Promise<void> => {
  const { args } = context;
  switch (args.words[1]) {
    case 'create': {
      const accountId = required(args, 'account', 'ACCOUNT_ID');
      const name = nameOption(args);
      const actions = listOption(args, 'actions');
      if (actions.length === 0)
        throw new InputError(`Missing --actions: pass --actions with some of ${ACTIONS.join(',')}.`);
      const environments = listOption(args, 'envs');
      const { access, clientSecret } = await context.withOperations('write', (ops) =>
        ops.createAccess({ accountId, name, actions, environments }),
      );
      // With --json the secret is in the object; the warning still reaches whoever runs the command.
      if (context.json) context.note(SECRET_WARNING);
      context.print(
        { accessId: access.id, clientId: access.client_id, clientSecret },
        [
          `Access ${access.id} created (${access.actions.join(', ')}; environments: ${scopeOf(access)}).`,
          `Client id:     ${access.client_id}`,
          `Client secret: ${clientSecret}`,
          SECRET_WARNING,
        ].join('\n'),
      );
      return;
    }
    case 'list': {
      const accountId = required(args, 'account', 'ACCOUNT_ID');
      const accesses = await context.withOperations('read', (ops) => ops.listAccesses(accountId));
      context.print(
        { accesses },
        textTable(
          ['id', 'name', 'client id', 'actions', 'environments', 'created', 'revoked'],
          accesses.map((a) => [
            a.id,
            a.name,
            a.client_id,
            a.actions.join(','),
            scopeOf(a),
            shortTime(a.created_at),
            shortTime(a.revoked_at),
          ]),
          `Account ${accountId} has no accesses yet: create one with \`feature-server access create --account ${accountId} --name N --actions a,b\`.`,
        ),
      );
      return;
    }
    case 'show': {
      const accessId = positional(args, 2, 'the access id', 'pass `access show ACCESS_ID`');
      const access = await context.withOperations('read', (ops) => ops.getAccess(accessId));
      context.print({ access }, accessLines(access));
      return;
    }
    case 'revoke': {
      const accessId = positional(args, 2, 'the access id', 'pass `access revoke ACCESS_ID`');
      const access = await context.withOperations('write', (ops) => ops.revokeAccess(accessId));
      context.print(
        { revoked: access.id },
        `Access ${access.id} revoked (${shortTime(access.revoked_at)}): its tokens stop working at their next use.`,
      );
      return;
    }
    default:
      throw new InputError(
        'Unknown command: use `access create --account A --name N --actions a,b [--envs e1,e2]`, `access list --account A`, `access show ID` or `access revoke ID`.',
      );
  }
};
