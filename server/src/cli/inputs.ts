// Command-line values checked the same way whichever store a command goes to, so the messages say what to
// change in the command, not in an HTTP body.
import { InputError } from '../errors.js';
import { required, type ParsedArgs } from './args.js';

/** A name (`--name`): 1 to 100 characters once trimmed, as the operator routes accept. */
export const nameOption = (args: ParsedArgs): string => {
  const name = required(args, 'name', 'NAME').trim();
  if (name === '' || name.length > 100)
    throw new InputError('--name must have 1 to 100 characters (quote a name with spaces).');
  return name;
};

/** A comma-separated list option (`--actions a,b`); empty when absent. */
export const listOption = (args: ParsedArgs, option: string): string[] =>
  (args.options.get(option) ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** The one positional word after the command words (`access show ID`), required. */
export const positional = (args: ParsedArgs, index: number, what: string, usage: string): string => {
  const value = args.words[index];
  if (value === undefined || value === '') throw new InputError(`Missing ${what}: ${usage}.`);
  return value;
};

/** An ISO time for a table, to the second; `-` for none. */
export const shortTime = (iso: string | null): string =>
  iso === null ? '-' : iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
