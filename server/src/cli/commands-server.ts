// `feature-server serve`, `start` and `demo` (PROTOCOL.md §13.9). `serve` and `start` hold the store
// themselves (a second server on a busy embedded folder stops with the folder's message); `demo` works on
// the store, or through the server that holds it.
import { isatty } from 'node:tty';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.js';
import { demoCredentialsPath } from '../demo-credentials.js';
import { seedDemo, type SeededDemo } from '../demo-seed.js';
import { createLogger } from '../logger.js';
import { serve, type RunningServer } from '../main.js';
import { describeRepair } from '../store/pglite/data-dir-modes.js';
import type { Store } from '../store/store.js';
import { signInLinkWanted } from './commands-console.js';
import type { CommandContext } from './context.js';
import { seedDemoWith } from './demo-operations.js';
import { chooseLogFormat, logDestination, useColor } from './log-format.js';
import { configuredStore, openConfiguredStore } from './open-operations.js';

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

/** The demo's notice, said on stderr with --json when it warns; the text for the readable output. */
const tell = (context: CommandContext, demo: SeededDemo, file: string): string | null => {
  const notice = demoKeyNotice(demo, file);
  if (context.json && notice?.warn === true) context.note(notice.text);
  return notice?.text ?? null;
};

/**
 * The server's logger, made before the store opens so that what opening finds is logged with the rest. Logs
 * go to stdout, or stderr with --json (stdout then carries one JSON object only); as LOG_FORMAT says, else
 * readable lines (coloured on a terminal).
 */
const serverLog = (context: CommandContext): Logger => {
  const fd = context.json ? 2 : 1;
  const isTerminal = isatty(fd);
  const format = chooseLogFormat(context.io.env.LOG_FORMAT);
  return createLogger(context.config.logLevel, logDestination(fd, format, useColor(isTerminal)));
};

/**
 * Opens the store a server holds, and says which; a data folder found open to other users is logged, and so
 * is a PostgreSQL server with autovacuum off (one warning line).
 */
const openServerStore = async (context: CommandContext, log: Logger): Promise<Store> => {
  const store = await openConfiguredStore(
    context.config,
    (text) => context.note(text),
    (repair) => {
      log.warn(
        {
          dataDir: repair.dataDir,
          changed: repair.changed,
          examples: repair.examples.map(({ path }) => path),
        },
        describeRepair(repair),
      );
    },
    (warning) => log.warn(warning),
    // An upgrade's migrations (minutes on a large database) are said in the server's log, as the backfill is.
    (line) => log.info(line),
  );
  context.usingStore(configuredStore(context.config));
  return store;
};

/** How to sign in to a running console without a link in the output. */
const howToSignIn = (running: RunningServer, config: ServerConfig): string => {
  const ways = [
    ...(config.operatorKey === null ? [] : ['sign in with the operator key (FEATURE_OPERATOR_KEY)']),
    running.store.kind === 'pglite'
      ? '`npx feature-server console` prints a one-time sign-in link'
      : `\`npx feature-server console --url ${running.url}\` prints a one-time sign-in link`,
  ];
  return ways.join(', or ');
};

/** The readable console line when the console is off, or when no link is printed. */
const consoleLine = (running: RunningServer, config: ServerConfig): string =>
  running.consoleOn
    ? `Console:        ${running.url}/admin (${howToSignIn(running, config)})`
    : `Console:        ${running.url}/admin is off: set FEATURE_OPERATOR_KEY to turn it on.`;

/**
 * `serve`: the server, until SIGINT or SIGTERM. It never prints a sign-in link: its output is usually a log
 * stream, where a link (a full operator session for 15 minutes) would be anyone's who reads the logs.
 */
export const serveCommand = async (context: CommandContext): Promise<void> => {
  const log = serverLog(context);
  const running = await serve(context.config, await openServerStore(context, log), undefined, { log });
  context.print(
    { url: running.url, consoleUrl: `${running.url}/admin` },
    [`feature-server listening on ${running.url}`, consoleLine(running, context.config)].join('\n'),
  );
};

/**
 * `start`: the demo seeded on the first run, then the server (what `npm start` runs). It prints a console
 * sign-in link only on a terminal or with --sign-in-link (signInLinkWanted).
 */
export const startCommand = async (context: CommandContext): Promise<void> => {
  const { config } = context;
  const log = serverLog(context);
  const store = await openServerStore(context, log);
  const file = demoCredentialsPath(config.dataDir);
  let demo: SeededDemo;
  try {
    demo = await seedDemo(store, file);
  } catch (error) {
    await store.close();
    throw error;
  }
  const notice = tell(context, demo, file);
  const running = await serve(config, store, { envId: demo.envId, apiKey: demo.apiKey }, { log });
  const link = signInLinkWanted(context) ? await running.consoleSignInLink() : null;
  context.print(
    {
      url: running.url,
      demoUrl: `${running.url}/`,
      reactDemoUrl: `${running.url}/demo/framework/`,
      elementsUrl: `${running.url}/sdk/elements.js`,
      consoleUrl: `${running.url}/admin`,
      ...(link === null ? {} : { consoleSignInLink: link }),
      envId: demo.envId,
      apiKey: demo.apiKey,
    },
    [
      `Demo page:      ${running.url}/ (the same tags in React: ${running.url}/demo/framework/)`,
      link === null
        ? consoleLine(running, config)
        : `Console:        ${link}\n                (signs in once, within 15 min; afterwards \`npx feature-server console\` prints a new link)`,
      `Web components: <script type="module" src="${running.url}/sdk/elements.js"></script>`,
      `Environment id: ${demo.envId}`,
      `API key:        ${demo.apiKey}`,
      ...(notice === null ? [] : [notice]),
      'Stop with Ctrl+C.',
    ].join('\n'),
  );
};

/** `demo`: seeds the demo account, environment and campaigns if absent, and prints its key. */
export const demoCommand = async (context: CommandContext): Promise<void> => {
  const file = demoCredentialsPath(context.config.dataDir);
  const demo = await context.withOperations('write', (ops) => seedDemoWith(ops, file));
  const notice = tell(context, demo, file);
  context.print(
    { accountId: demo.accountId, envId: demo.envId, apiKey: demo.apiKey },
    [
      `Demo ${demo.keySource === 'created' ? 'created' : 'already there'}: environment ${demo.envId}, API key ${demo.apiKey}`,
      ...(notice === null ? [] : [notice]),
    ].join('\n'),
  );
};
