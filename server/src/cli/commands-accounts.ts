// `feature-server account …` and `env …` (PROTOCOL.md §13.9): accounts and their environments. API keys are
// printed once, when made or rotated; lists never show them.
import { InputError } from '../errors.js';
import { required } from './args.js';
import type { CommandContext } from './context.js';
import { nameOption, shortTime } from './inputs.js';
import { textTable } from './text-table.js';

/** `account create --name N`, `account list`. */
export const accountCommand = async (context: CommandContext): Promise<void> => {
  const { args } = context;
  switch (args.words[1]) {
    case 'create': {
      const name = nameOption(args);
      const account = await context.withOperations('write', (ops) => ops.createAccount(name));
      context.print({ accountId: account.id }, `Account ${account.id} created.`);
      return;
    }
    case 'list': {
      const accounts = await context.withOperations('read', (ops) => ops.listAccounts());
      context.print(
        { accounts },
        textTable(
          ['id', 'name', 'created'],
          accounts.map((a) => [a.id, a.name, shortTime(a.created_at)]),
          'No accounts yet: create one with `feature-server account create --name N`.',
        ),
      );
      return;
    }
    default:
      throw new InputError('Unknown command: use `account create --name N` or `account list`.');
  }
};

/** `env create --account A --name N [--xpc] [--1v1t]`, `env list --account A`, `env rotate-key --env E`. */
export const envCommand = async (context: CommandContext): Promise<void> => {
  const { args } = context;
  switch (args.words[1]) {
    case 'create': {
      const accountId = required(args, 'account', 'ACCOUNT_ID');
      const name = nameOption(args);
      const { environment, apiKey } = await context.withOperations('write', (ops) =>
        ops.createEnvironment({
          accountId,
          name,
          enabledXPC: args.flags.has('xpc'),
          enabled1V1T: args.flags.has('1v1t'),
        }),
      );
      context.print(
        { accountId, envId: environment.id, apiKey },
        `Environment ${environment.id} created.\nAPI key (shown once): ${apiKey}`,
      );
      return;
    }
    case 'list': {
      const accountId = required(args, 'account', 'ACCOUNT_ID');
      const environments = await context.withOperations('read', (ops) => ops.listEnvironments(accountId));
      const yes = (on: boolean): string => (on ? 'on' : 'off');
      context.print(
        { environments },
        textTable(
          ['id', 'name', 'panic', 'XPC', '1V1T'],
          environments.map((e) => [
            e.id,
            e.name,
            yes(e.panic),
            yes(e.settings.enabledXPC),
            yes(e.settings.enabled1V1T),
          ]),
          `Account ${accountId} has no environments yet: create one with \`feature-server env create --account ${accountId} --name N\`.`,
        ),
      );
      return;
    }
    case 'rotate-key': {
      const envId = required(args, 'env', 'ENV_ID');
      const apiKey = await context.withOperations('write', (ops) => ops.rotateApiKey(envId));
      context.print(
        { envId, apiKey },
        `API key of ${envId} rotated: the previous key stopped working.\nNew API key (shown once): ${apiKey}`,
      );
      return;
    }
    default:
      throw new InputError(
        'Unknown command: use `env create --account A --name N [--xpc] [--1v1t]`, `env list --account A` or `env rotate-key --env E`.',
      );
  }
};
