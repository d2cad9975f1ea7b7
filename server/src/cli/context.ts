// What every command is given: its arguments, the configuration, how to print (one JSON object with --json,
// readable text without), and the store to work on, which the context opens, names and closes.
import { isatty } from 'node:tty';
import type { ServerConfig } from '../config.js';
import type { ParsedArgs } from './args.js';
import { openOperations, type OpenMode } from './open-operations.js';
import { describeStore, type Operations, type StoreUsed } from './operations.js';

/** Somewhere a command writes text. */
export interface CliOutput {
  write(text: string): unknown;
}

/**
 * What a run of the CLI writes to and reads from. The binary uses the process's own (processIo); tests run
 * the one-shot commands in their own process with buffers, since a child process per command costs seconds
 * of startup. The server commands (serve, start) still log on the process's file descriptors.
 */
export interface CliIo {
  stdout: CliOutput;
  stderr: CliOutput;
  /** The environment the configuration is read from. */
  env: NodeJS.ProcessEnv;
  /** Whether stdout is an interactive terminal, where a person (not a log) reads a sign-in link. */
  stdoutIsTerminal: boolean;
}

/** The process's own stdout, stderr and environment: what the `feature-server` binary runs with. */
export const processIo = (): CliIo => ({
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  // isatty, not process.stdout.isTTY: that is undefined off a terminal, whatever its declared type says.
  stdoutIsTerminal: isatty(1),
});

/** A command's view of the CLI. */
export interface CommandContext {
  args: ParsedArgs;
  config: ServerConfig;
  json: boolean;
  /** Where this run writes and what environment it reads. */
  io: CliIo;
  /** The store the command used, once known: `store` in every --json object from then on. */
  storeUsed: StoreUsed | null;
  /** Prints the outcome: `value` (with `store`) as JSON with --json, else `human`. */
  print(value: Record<string, unknown>, human: string): void;
  /** A line on stderr (never on stdout, which may carry JSON). */
  note(text: string): void;
  /** Opens the store (or the running server) the command works on, says which, runs `work`, closes. */
  withOperations<T>(mode: OpenMode, work: (operations: Operations) => Promise<T>): Promise<T>;
  /** Records the store used by a command that opens it itself (serve, start) and says which. */
  usingStore(used: StoreUsed): void;
}

/** The context of one run, writing to `io`. */
export const createContext = (args: ParsedArgs, config: ServerConfig, io: CliIo): CommandContext => {
  const json = args.flags.has('json');
  const context: CommandContext = {
    args,
    config,
    json,
    io,
    storeUsed: null,
    print: (value, human) => {
      const store = context.storeUsed;
      io.stdout.write(`${json ? JSON.stringify(store === null ? value : { ...value, store }) : human}\n`);
    },
    note: (text) => {
      io.stderr.write(`feature-server: ${text}\n`);
    },
    usingStore: (used) => {
      context.storeUsed = used;
      if (!json) context.note(`using ${describeStore(used)}`);
    },
    withOperations: async (mode, work) => {
      const operations = await openOperations(config, mode, (text) => context.note(text));
      try {
        context.usingStore(operations.used);
        return await work(operations);
      } finally {
        await operations.close();
      }
    },
  };
  return context;
};
