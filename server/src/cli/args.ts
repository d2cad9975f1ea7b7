// Command-line parsing for `feature-server`: positional words, `--flag` booleans and `--name value` options.
// Which names are flags comes from the help's table (command-line.ts); whether a command takes the options
// given is checked there too, once the command is known.
import { InputError } from '../errors.js';
import { KNOWN_FLAGS } from './command-line.js';

/** A parsed command line. */
export interface ParsedArgs {
  words: string[];
  options: Map<string, string>;
  /** Flags, and any other option given without a value (checkCommandLine says which it should have had). */
  flags: Set<string>;
}

/** Parses argv (without node and the script). */
export const parseArgs = (argv: readonly string[]): ParsedArgs => {
  const words: string[] = [];
  const options = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const [name = '', inline] = arg.slice(2).split('=', 2);
    const value = argv[i + 1];
    if (KNOWN_FLAGS.has(name)) flags.add(name);
    else if (inline !== undefined) options.set(name, inline);
    else if (value === undefined || value.startsWith('--')) flags.add(name);
    else {
      options.set(name, value);
      i++;
    }
  }
  return { words, options, flags };
};

/** The value of a required option. */
export const required = (args: ParsedArgs, name: string, what: string): string => {
  const value = args.options.get(name);
  if (value === undefined || value === '') throw new InputError(`Missing --${name}: pass --${name} ${what}.`);
  return value;
};
