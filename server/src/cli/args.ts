// Command-line parsing for `feature-server`: positional words, `--flag` booleans and `--name value` options.
import { InputError } from '../errors.js';

/** A parsed command line. */
export interface ParsedArgs {
  words: string[];
  options: Map<string, string>;
  flags: Set<string>;
}

const BOOLEAN_FLAGS = new Set(['json', 'xpc', '1v1t', 'help', 'sign-in-link', 'rebuild']);

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
    if (BOOLEAN_FLAGS.has(name)) {
      flags.add(name);
    } else if (inline !== undefined) {
      options.set(name, inline);
    } else {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--'))
        throw new InputError(`--${name} needs a value: --${name} VALUE.`);
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
