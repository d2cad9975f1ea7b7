// What every command is given: its arguments, the configuration, how to print (one JSON object with --json,
// readable text without), and the store to work on, which the context opens, names and closes.
import type { ServerConfig } from '../config.js';
import type { ParsedArgs } from './args.js';
import { openOperations, type OpenMode } from './open-operations.js';
import { describeStore, type Operations, type StoreUsed } from './operations.js';

/** A command's view of the CLI. */
export interface CommandContext {
  args: ParsedArgs;
  config: ServerConfig;
  json: boolean;
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

/** The context of one run. */
export const createContext = (args: ParsedArgs, config: ServerConfig): CommandContext => {
  const json = args.flags.has('json');
  const context: CommandContext = {
    args,
    config,
    json,
    storeUsed: null,
    print: (value, human) => {
      const store = context.storeUsed;
      process.stdout.write(
        `${json ? JSON.stringify(store === null ? value : { ...value, store }) : human}\n`,
      );
    },
    note: (text) => {
      process.stderr.write(`feature-server: ${text}\n`);
    },
    usingStore: (used) => {
      context.storeUsed = used;
      if (!json) context.note(`using ${describeStore(used)}`);
    },
    withOperations: async (mode, work) => {
      const operations = await openOperations(config, mode);
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
