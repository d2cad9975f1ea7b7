// `feature-server`: operating the server and its database (PROTOCOL.md §13.9). Every command takes --json and
// then prints one JSON object on stdout, errors included (`{"error":{"code","message","details"?}}`, details
// naming the fields of a refused campaign file); errors also go to stderr with a message that says what to
// change, and a non-zero exit code. Every command says which store it used (stderr, or `store` in the JSON
// object). The commands live in cli/commands-*.ts.
import { parseArgs } from './cli/args.js';
import { describeFailure } from './cli/cli-error.js';
import { accessCommand } from './cli/commands-accesses.js';
import { accountCommand, envCommand } from './cli/commands-accounts.js';
import { campaignCommand } from './cli/commands-campaign.js';
import { consoleCommand } from './cli/commands-console.js';
import { endSessionsCommand } from './cli/commands-console-sessions.js';
import { importCommand, panicCommand, reportCommand } from './cli/commands-campaigns.js';
import { demoCommand, serveCommand, startCommand } from './cli/commands-server.js';
import { createContext, processIo, type CliIo, type CommandContext } from './cli/context.js';
import { USAGE } from './cli/usage.js';
import { readServerConfig } from './config.js';
import { InputError } from './errors.js';

const COMMANDS: Record<string, (context: CommandContext) => Promise<void>> = {
  serve: serveCommand,
  start: startCommand,
  demo: demoCommand,
  account: accountCommand,
  env: envCommand,
  panic: panicCommand,
  import: importCommand,
  campaign: campaignCommand,
  report: reportCommand,
  access: accessCommand,
  // `console end-sessions` works on the store like the other commands; `console` alone asks a server for a link.
  console: (context) =>
    context.args.words[1] === 'end-sessions' ? endSessionsCommand(context) : consoleCommand(context),
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
    const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (run === undefined)
      throw new InputError(
        `Unknown command "${args.words.join(' ')}": \`feature-server --help\` lists them.`,
      );
    context = createContext(args, readServerConfig(io.env), io);
    await run(context);
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
