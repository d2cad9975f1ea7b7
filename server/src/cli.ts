// `feature-server`: operating the server and its database (PROTOCOL.md §13.9). Every command takes --json and
// then prints one JSON object on stdout, errors included (`{"error":{"code","message","details"?}}`, details
// naming the fields of a refused campaign file); errors also go to stderr with a message that says what to
// change, and a non-zero exit code. Every command says which store it used (stderr, or `store` in the JSON
// object). The commands live in cli/commands-*.ts.
import { parseArgs } from './cli/args.js';
import { describeFailure } from './cli/cli-error.js';
import { checkCommandLine } from './cli/command-line.js';
import { createContext, processIo, type CliIo, type CommandContext } from './cli/context.js';
import { USAGE } from './cli/usage.js';
import { readServerConfig } from './config.js';

type Command = (context: CommandContext) => Promise<void>;

/**
 * Each command's module, loaded when the command runs: the server's modules (fastify, the store, the report
 * code) take seconds to load and a command through a running server needs none of them.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./cli/commands-server.js')).serveCommand,
  start: async () => (await import('./cli/commands-server.js')).startCommand,
  demo: async () => (await import('./cli/commands-server.js')).demoCommand,
  account: async () => (await import('./cli/commands-accounts.js')).accountCommand,
  env: async () => (await import('./cli/commands-accounts.js')).envCommand,
  panic: async () => (await import('./cli/commands-campaigns.js')).panicCommand,
  import: async () => (await import('./cli/commands-campaigns.js')).importCommand,
  campaign: async () => (await import('./cli/commands-campaign.js')).campaignCommand,
  report: async () => (await import('./cli/commands-campaigns.js')).reportCommand,
  access: async () => (await import('./cli/commands-accesses.js')).accessCommand,
  user: async () => (await import('./cli/commands-users.js')).userCommand,
  // `console end-sessions` works on the store like the other commands; `console` alone asks a server for a link.
  console: async () => {
    const [{ endSessionsCommand }, { consoleCommand }] = await Promise.all([
      import('./cli/commands-console-sessions.js'),
      import('./cli/commands-console.js'),
    ]);
    return (context) =>
      context.args.words[1] === 'end-sessions' ? endSessionsCommand(context) : consoleCommand(context);
  },
};

/**
 * Runs the CLI; resolves to the exit code (the server commands keep the process alive). It writes to and reads
 * the environment of `io`, the process's own unless given (tests run one-shot commands in their process).
 */
export const runCli = async (argv: readonly string[], io: CliIo = processIo()): Promise<number> => {
  let json = argv.includes('--json');
  let context: CommandContext | null = null;
  try {
    const args = parseArgs(argv);
    json = args.flags.has('json');
    const [command = 'help'] = args.words;
    if (args.flags.has('help') || command === 'help') {
      io.stdout.write(`${json ? JSON.stringify({ usage: USAGE }) : USAGE}\n`);
      return 0;
    }
    // Checked against the help's table first: a typo is named as one, with the nearest known word.
    checkCommandLine(args);
    const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (load === undefined) throw new Error(`The help lists "${command}" but no module runs it.`);
    context = createContext(args, readServerConfig(io.env), io);
    await (
      await load()
    )(context);
    return 0;
  } catch (error) {
    const failure = describeFailure(error);
    const detail =
      !failure.known && error instanceof Error ? (error.stack ?? failure.message) : failure.message;
    io.stderr.write(`feature-server: ${failure.known ? failure.message : detail}\n`);
    if (json) {
      const store = context?.storeUsed ?? null;
      const { code, message, details } = failure;
      const answer = { error: { code, message, ...(details === undefined ? {} : { details }) } };
      io.stdout.write(`${JSON.stringify(store === null ? answer : { ...answer, store })}\n`);
    }
    return failure.known ? 2 : 1;
  }
};
