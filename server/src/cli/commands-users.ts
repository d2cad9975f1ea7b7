// `feature-server user …` (issue 36): an account's people from the command line, with or without a running
// server: invite (prints the one-time link), list, change a role, remove, make a reset link. The CLI is how
// the first admin comes to be without the console (the operator key's console can do it too); links are
// printed, never mailed: this server has no mail server.
import { InputError } from '../errors.js';
import { ROLES, type Role } from '../store/user-store.js';
import { required } from './args.js';
import type { CommandContext } from './context.js';
import { positional, shortTime } from './inputs.js';
import type { LinkView } from './operations.js';
import { textTable } from './text-table.js';

const roleOption = (value: string): Role => {
  const role = ROLES.find((r) => r === value);
  if (role === undefined)
    throw new InputError(`--role must be one of ${ROLES.join(', ')}, not "${value.slice(0, 32)}".`);
  return role;
};

const linkLines = (what: string, link: LinkView): string =>
  [
    `${what}: ${link.path}`,
    `Open it on this server (e.g. http://127.0.0.1:8080${link.path}) before ${shortTime(link.expires_at)}; it works once.`,
  ].join('\n');

/** `user invite|list|role|remove|reset-link`. */
export const userCommand = async (context: CommandContext): Promise<void> => {
  const { args } = context;
  const accountId = (): string => required(args, 'account', 'ACCOUNT_ID');
  const user = (verb: string): string =>
    positional(args, 2, 'the user (id or email)', `pass \`user ${verb} EMAIL_OR_ID --account A\``);
  switch (args.words[1]) {
    case 'invite': {
      const account = accountId();
      const email = required(args, 'email', 'EMAIL').trim();
      const role = roleOption(required(args, 'role', 'admin|editor|viewer'));
      const { user: member, link } = await context.withOperations('write', (ops) =>
        ops.inviteUser(account, email, role),
      );
      context.print(
        { user: member, link },
        // A person who already has a user answers a join link signed in as themselves; a new one chooses a
        // password with theirs. Either way, the link is given on once.
        [
          `${member.email} invited as ${member.role} of account ${account}.`,
          linkLines('Invitation link', link),
        ].join('\n'),
      );
      return;
    }
    case 'list': {
      const account = accountId();
      const users = await context.withOperations('read', (ops) => ops.listUsers(account));
      context.print(
        { users },
        textTable(
          ['id', 'email', 'name', 'role', 'active', 'invited', 'last sign-in'],
          users.map((u) => [
            u.id,
            u.email,
            u.name,
            u.role,
            u.active ? 'yes' : 'invited',
            shortTime(u.created_at),
            shortTime(u.last_sign_in_at),
          ]),
          `Account ${account} has no members yet: invite one with \`feature-server user invite --account ${account} --email E --role admin\`.`,
        ),
      );
      return;
    }
    case 'role': {
      const who = user('role');
      const account = accountId();
      const role = roleOption(required(args, 'role', 'admin|editor|viewer'));
      const member = await context.withOperations('write', (ops) => ops.setUserRole(account, who, role));
      context.print({ user: member }, `${member.email} is now ${member.role} of account ${account}.`);
      return;
    }
    case 'remove': {
      const who = user('remove');
      const account = accountId();
      await context.withOperations('write', (ops) => ops.removeUser(account, who));
      context.print({ removed: who }, `${who} is no longer a member of account ${account}.`);
      return;
    }
    case 'reset-link': {
      const who = user('reset-link');
      const account = accountId();
      const link = await context.withOperations('write', (ops) => ops.userResetLink(account, who));
      context.print({ link }, linkLines(`Password reset link for ${who}`, link));
      return;
    }
    default:
      throw new InputError(
        `Unknown command "user ${(args.words[1] ?? '').slice(0, 32)}": use user invite, list, role, remove or reset-link.`,
      );
  }
};
