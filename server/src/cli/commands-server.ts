// `feature-server serve`, `start` and `demo` (PROTOCOL.md §13.9). `serve` and `start` hold the store
// themselves (a second server on a busy embedded folder stops with the folder's message); `demo` works on
// the store, or through the server that holds it.
import { isatty } from 'node:tty';
import type { DestinationStream } from 'pino';
import { demoCredentialsPath } from '../demo-credentials.js';
import { seedDemo, type SeededDemo } from '../demo-seed.js';
import { serve } from '../main.js';
import type { Store } from '../store/store.js';
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
 * Where the server's logs go: stdout, or stderr with --json (stdout then carries one JSON object only); as
 * LOG_FORMAT says, else readable lines on a terminal and JSON lines anywhere else.
 */
const serverLogs = (json: boolean): DestinationStream => {
  const fd = json ? 2 : 1;
  const isTerminal = isatty(fd);
  return logDestination(fd, chooseLogFormat(process.env.LOG_FORMAT, isTerminal), useColor(isTerminal));
};

/** Opens the store a server holds, and says which. */
const openServerStore = async (context: CommandContext): Promise<Store> => {
  const store = await openConfiguredStore(context.config);
  context.usingStore(configuredStore(context.config));
  return store;
};

/** `serve`: the server, until SIGINT or SIGTERM. */
export const serveCommand = async (context: CommandContext): Promise<void> => {
  const logs = serverLogs(context.json);
  const running = await serve(context.config, await openServerStore(context), undefined, {
    logDestination: logs,
  });
  const link = await running.consoleSignInLink();
  context.print(
    { url: running.url, consoleUrl: `${running.url}/admin`, consoleSignInLink: link },
    [
      `feature-server listening on ${running.url}`,
      link === null
        ? `Console:        ${running.url}/admin is off: set FEATURE_OPERATOR_KEY to turn it on.`
        : `Console:        ${link} (signs in once, within 15 min; later: ${running.url}/admin with the operator key, or \`feature-server console\` for a new link)`,
    ].join('\n'),
  );
};

/** `start`: the demo seeded on the first run, then the server (what `npm start` runs). */
export const startCommand = async (context: CommandContext): Promise<void> => {
  const { config } = context;
  const logs = serverLogs(context.json);
  const store = await openServerStore(context);
  const file = demoCredentialsPath(config.dataDir);
  let demo: SeededDemo;
  try {
    demo = await seedDemo(store, file);
  } catch (error) {
    await store.close();
    throw error;
  }
  const notice = tell(context, demo, file);
  const running = await serve(
    config,
    store,
    { envId: demo.envId, apiKey: demo.apiKey },
    { logDestination: logs },
  );
  const link = await running.consoleSignInLink();
  context.print(
    {
      url: running.url,
      demoUrl: `${running.url}/`,
      reactDemoUrl: `${running.url}/demo/framework/`,
      elementsUrl: `${running.url}/sdk/elements.js`,
      consoleUrl: `${running.url}/admin`,
      consoleSignInLink: link,
      envId: demo.envId,
      apiKey: demo.apiKey,
    },
    [
      `Demo page:      ${running.url}/ (the same tags in React: ${running.url}/demo/framework/)`,
      link === null
        ? `Console:        ${running.url}/admin is off: set FEATURE_OPERATOR_KEY to turn it on.`
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
