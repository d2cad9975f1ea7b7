// `feature-server`: operating the server and its database (PROTOCOL.md §13.9). Every command takes --json and
// then prints one JSON object on stdout; errors go to stderr with a message that says what to change, and a
// non-zero exit code.
import { isatty } from 'node:tty';
import type { DestinationStream } from 'pino';
import { parseArgs, required, type ParsedArgs } from './cli/args.js';
import { importCampaignsFile } from './cli/import-file.js';
import { chooseLogFormat, logDestination, useColor } from './cli/log-format.js';
import { reportTable } from './cli/report-table.js';
import { readServerConfig, type ServerConfig } from './config.js';
import { demoCredentialsPath } from './demo-credentials.js';
import { seedDemo, type SeededDemo } from './demo-seed.js';
import { IdConflictError, InputError, unknownEnvironmentInput } from './errors.js';
import { openStore, serve } from './main.js';
import { buildCampaignReport } from './report/build-report.js';
import { DataDirBusyError } from './store/data-dir-lock.js';
import type { Store } from './store/store.js';

const USAGE = `Usage: feature-server <command> [--json]
  serve                                   start the server (PORT, HOST, DATABASE_URL, FEATURE_DATA_DIR, LOG_LEVEL,
                                          LOG_FORMAT)
  start                                   seed the demo on first run, then serve (what \`npm start\` runs)
  account create --name N                 create an account
  env create --account A --name N [--xpc] [--1v1t]   create an environment; prints its API key once
  import FILE --env E                     replace the environment's campaigns with a bucketing-format file
  report --env E [--campaign C]           campaign reports (a table without --json)
  demo                                    seed the demo account, environment and campaigns if absent`;

type Print = (value: Record<string, unknown>, human: string) => void;

/** Opens the configured store, saying on stderr (stdout may be --json) when the first run creates it. */
const openConfiguredStore = (config: ServerConfig): Promise<Store> =>
  openStore(config, (dataDir) => {
    process.stderr.write(
      `feature-server: creating the embedded database in ${dataDir} (first run only, a few seconds)…\n`,
    );
  });

const withStore = async <T>(config: ServerConfig, fn: (store: Store) => Promise<T>): Promise<T> => {
  const store = await openConfiguredStore(config);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
};

/**
 * Where the demo key comes from, in words; null when there is nothing to say beyond the key. A rotation or a
 * failed save is news for whoever pasted the previous key somewhere, so it is also said with --json (stderr).
 */
const demoKeyNotice = (demo: SeededDemo, file: string): { text: string; warn: boolean } | null => {
  if (demo.saveError !== null) {
    return {
      text: `Could not save the demo API key in ${file} (${demo.saveError}): the next run will rotate it again. Set FEATURE_DATA_DIR to a writable folder.`,
      warn: true,
    };
  }
  switch (demo.keySource) {
    case 'created':
      return {
        text: `The API key is saved in ${file} (mode 0600) and stays the same on later runs.`,
        warn: false,
      };
    case 'rotated':
      return {
        text: `${file} was missing or did not match, so the demo API key was rotated (the previous key no longer works); the new key is saved there.`,
        warn: true,
      };
    case 'saved':
      return null;
  }
};

const seedDemoAndTell = async (
  store: Store,
  config: ServerConfig,
  json: boolean,
): Promise<SeededDemo & { notice: string | null }> => {
  const file = demoCredentialsPath(config.dataDir);
  const demo = await seedDemo(store, file);
  const notice = demoKeyNotice(demo, file);
  if (json && notice?.warn === true) process.stderr.write(`feature-server: ${notice.text}\n`);
  return { ...demo, notice: notice?.text ?? null };
};

/**
 * Where the server's logs go: stdout, or stderr with --json (stdout then carries one JSON object only); as
 * LOG_FORMAT says, else readable lines on a terminal and JSON lines anywhere else.
 */
const serverLogs = (json: boolean): DestinationStream => {
  const fd = json ? 2 : 1;
  const isTerminal = isatty(fd);
  return logDestination(fd, chooseLogFormat(process.env.LOG_FORMAT, isTerminal), useColor(isTerminal));
};

const runCommand = async (args: ParsedArgs, config: ServerConfig, print: Print): Promise<void> => {
  const [command = '', sub = ''] = args.words;
  const json = args.flags.has('json');
  switch (`${command} ${sub}`.trim() === '' ? 'help' : command) {
    case 'serve': {
      const logDestination = serverLogs(json);
      const running = await serve(config, await openConfiguredStore(config), undefined, { logDestination });
      print({ url: running.url }, `feature-server listening on ${running.url}`);
      return;
    }
    case 'start': {
      const logDestination = serverLogs(json);
      const store = await openConfiguredStore(config);
      const demo = await seedDemoAndTell(store, config, json);
      const running = await serve(
        config,
        store,
        { envId: demo.envId, apiKey: demo.apiKey },
        { logDestination },
      );
      print(
        {
          url: running.url,
          demoUrl: `${running.url}/`,
          reactDemoUrl: `${running.url}/demo/framework/`,
          elementsUrl: `${running.url}/sdk/elements.js`,
          envId: demo.envId,
          apiKey: demo.apiKey,
        },
        [
          `Demo page:      ${running.url}/ (the same tags in React: ${running.url}/demo/framework/)`,
          `Web components: <script type="module" src="${running.url}/sdk/elements.js"></script>`,
          `Environment id: ${demo.envId}`,
          `API key:        ${demo.apiKey}`,
          ...(demo.notice === null ? [] : [demo.notice]),
          'Stop with Ctrl+C.',
        ].join('\n'),
      );
      return;
    }
    case 'account': {
      if (sub !== 'create') throw new InputError('Unknown command: use `account create --name N`.');
      const account = await withStore(config, (store) => store.createAccount(required(args, 'name', 'NAME')));
      print({ accountId: account.id }, `Account ${account.id} created.`);
      return;
    }
    case 'env': {
      if (sub !== 'create') throw new InputError('Unknown command: use `env create --account A --name N`.');
      const accountId = required(args, 'account', 'ACCOUNT_ID');
      const name = required(args, 'name', 'NAME');
      const { environment, apiKey } = await withStore(config, (store) =>
        store.createEnvironment({
          accountId,
          name,
          accountSettings: { enabledXPC: args.flags.has('xpc'), enabled1V1T: args.flags.has('1v1t') },
        }),
      );
      print(
        { accountId, envId: environment.id, apiKey },
        `Environment ${environment.id} created.\nAPI key (shown once): ${apiKey}`,
      );
      return;
    }
    case 'import': {
      const file = sub === '' ? required(args, 'file', 'FILE') : sub;
      const envId = required(args, 'env', 'ENV_ID');
      const count = await withStore(config, (store) => importCampaignsFile(store, envId, file));
      print({ envId, campaigns: count }, `${count} campaign(s) imported into ${envId}.`);
      return;
    }
    case 'report': {
      const envId = required(args, 'env', 'ENV_ID');
      const only = args.options.get('campaign');
      const reports = await withStore(config, async (store) => {
        if ((await store.getEnvironment(envId)) === null) throw unknownEnvironmentInput(envId);
        const ids =
          only !== undefined
            ? [only]
            : (await store.listCampaigns(envId, { includeDeleted: true })).map((c) => c.id);
        return Promise.all(ids.map((id) => buildCampaignReport(store, envId, id)));
      });
      if (json) print(only !== undefined && reports[0] !== undefined ? { ...reports[0] } : { reports }, '');
      else print({}, reportTable(reports));
      return;
    }
    case 'demo': {
      const demo = await withStore(config, (store) => seedDemoAndTell(store, config, json));
      print(
        { accountId: demo.accountId, envId: demo.envId, apiKey: demo.apiKey },
        [
          `Demo ${demo.keySource === 'created' ? 'created' : 'already there'}: environment ${demo.envId}, API key ${demo.apiKey}`,
          ...(demo.notice === null ? [] : [demo.notice]),
        ].join('\n'),
      );
      return;
    }
    case 'help':
      print({ usage: USAGE }, USAGE);
      return;
    default:
      throw new InputError(`Unknown command "${args.words.join(' ')}".\n${USAGE}`);
  }
};

/** Runs the CLI; resolves to the exit code (the server commands keep the process alive). */
export const runCli = async (argv: readonly string[]): Promise<number> => {
  let json = argv.includes('--json');
  try {
    const args = parseArgs(argv);
    json = args.flags.has('json');
    const print: Print = (value, human) => {
      process.stdout.write(`${json ? JSON.stringify(value) : human}\n`);
    };
    await runCommand(args, readServerConfig(), print);
    return 0;
  } catch (error) {
    const known =
      error instanceof InputError || error instanceof IdConflictError || error instanceof DataDirBusyError;
    const message = known
      ? error.message
      : `Unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
    process.stderr.write(`feature-server: ${message}\n`);
    return known ? 2 : 1;
  }
};
