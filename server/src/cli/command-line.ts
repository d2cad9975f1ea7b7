// What each command knows, read from the help's table (usage.ts): its sub-commands, its value options and its
// flags. A command line is checked against it before anything runs, so that a typo is named as a typo, with
// the nearest known word ("did you mean report?"), rather than reported as a missing option or run as a
// different command.
import { CliError } from './cli-error.js';
import { closestWord } from './closest-word.js';
import { GLOBAL_FLAGS, USAGE_SECTIONS, type UsageEntry, type UsagePlaceholder } from './usage.js';

/** The options a command (or one of its sub-commands) takes. */
export interface KnownOptions {
  /** Options given as `--name VALUE`. */
  values: Set<string>;
  /** Options given alone, `--name`. */
  flags: Set<string>;
}

/** A command: its sub-commands (none: the command takes none) and the options of each. */
export interface KnownCommand {
  /** Options of the command itself, when it runs without a sub-command. */
  own: KnownOptions | null;
  subcommands: Map<string, KnownOptions>;
}

/** An option in a usage: a flag when `]`, another option or the end follows it, else it takes a value. */
const OPTION = /--([a-z0-9-]+)/g;
const FLAG_AFTER = /^--[a-z0-9-]+(?=\]|$| \[| --)/;
/** A sub-command word, or alternatives (`on|off`): lower case, unlike placeholders (`ID|SLUG`). */
const SUBCOMMAND = /^[a-z][a-z-]*(\|[a-z][a-z-]*)*$/;
const PLACEHOLDER = /\[([A-Z]+)\]/g;

const placeholders = new Map<string, UsagePlaceholder>();
for (const section of USAGE_SECTIONS)
  for (const entry of section.entries)
    if (entry.explains !== undefined) placeholders.set(entry.explains.name, entry.explains);

/** Adds the options written in `usage` (and in the placeholders it names) to `known`. */
const addOptions = (usage: string, known: KnownOptions): void => {
  for (const match of usage.matchAll(OPTION)) {
    const name = match[1] ?? '';
    const isFlag = FLAG_AFTER.test(usage.slice(match.index));
    (isFlag ? known.flags : known.values).add(name);
  }
  for (const [, name = ''] of usage.matchAll(PLACEHOLDER))
    for (const option of placeholders.get(name)?.entries ?? []) addOptions(option.usage, known);
};

const readCommands = (entries: readonly UsageEntry[]): Map<string, KnownCommand> => {
  const commands = new Map<string, KnownCommand>();
  for (const { usage } of entries) {
    const [name = '', second = ''] = usage.split(' ');
    const command = commands.get(name) ?? { own: null, subcommands: new Map<string, KnownOptions>() };
    commands.set(name, command);
    const words = SUBCOMMAND.test(second) ? second.split('|') : [];
    const targets =
      words.length === 0
        ? [(command.own ??= { values: new Set(), flags: new Set() })]
        : words.map((word) => {
            const known = command.subcommands.get(word) ?? {
              values: new Set<string>(),
              flags: new Set<string>(),
            };
            command.subcommands.set(word, known);
            return known;
          });
    for (const known of targets) addOptions(usage, known);
  }
  return commands;
};

/** Every command of the help, with what it knows. */
export const KNOWN_COMMANDS: ReadonlyMap<string, KnownCommand> = readCommands(
  USAGE_SECTIONS.flatMap((section) => section.entries),
);

/** Every flag any command takes: the parser reads the word after any other option as its value. */
export const KNOWN_FLAGS: ReadonlySet<string> = new Set([
  ...GLOBAL_FLAGS,
  ...[...KNOWN_COMMANDS.values()].flatMap((command) =>
    [command.own, ...command.subcommands.values()].flatMap((known) =>
      known === null ? [] : [...known.flags],
    ),
  ),
]);

const HELP = '`feature-server --help` lists them.';

/** ` did you mean "x"?`, or nothing when no known word is near. */
const suggestion = (typed: string, known: Iterable<string>, quote: (word: string) => string): string => {
  const closest = closestWord(typed, known);
  return closest === null ? '' : ` did you mean ${quote(closest)}?`;
};

/** At most 40 characters of what was typed, for a message. */
const short = (typed: string): string => typed.slice(0, 40);

/** A command line's words and options, as parsed. */
export interface CommandLineArgs {
  readonly words: readonly string[];
  readonly options: ReadonlyMap<string, string>;
  /** Flags, and other options given without a value. */
  readonly flags: ReadonlySet<string>;
}

/** The options of the command (and sub-command) the words name; refuses unknown ones. */
const optionsOf = (words: readonly string[]): { command: string; known: KnownOptions } => {
  const [name = '', second] = words;
  const command = KNOWN_COMMANDS.get(name);
  if (command === undefined)
    throw new CliError(
      'unknown_command',
      `Unknown command "${short(name)}":${suggestion(name, KNOWN_COMMANDS.keys(), (w) => `"${w}"`)} ${HELP}`,
    );
  // A command that also runs alone (`console`) takes no other word than its sub-commands either.
  if (command.subcommands.size === 0 || (second === undefined && command.own !== null))
    return { command: name, known: command.own ?? { values: new Set(), flags: new Set() } };
  const subcommands = [...command.subcommands.keys()];
  const alone = command.own === null ? [] : ['nothing more'];
  const all = [...subcommands, ...alone];
  const choices = `${name} takes ${all.length > 1 ? `${all.slice(0, -1).join(', ')} or ` : ''}${all.at(-1) ?? ''}`;
  if (second === undefined)
    throw new CliError('unknown_command', `"${name}" needs a sub-command: ${choices}; ${HELP}`);
  const known = command.subcommands.get(second);
  if (known === undefined)
    throw new CliError(
      'unknown_command',
      `Unknown command "${name} ${short(second)}":${suggestion(second, subcommands, (w) => `"${name} ${w}"`)} ${choices}; ${HELP}`,
    );
  return { command: `${name} ${second}`, known };
};

/**
 * Checks a command line against the help's table: a known command, a known sub-command where the command has
 * them, only options that command takes, and a value for each option that takes one. Refusals are
 * `unknown_command`, `unknown_option` (with the nearest known word when one is near) or `invalid_input`.
 */
export const checkCommandLine = ({ words, options, flags }: CommandLineArgs): void => {
  const { command, known } = optionsOf(words);
  const isGlobal = (name: string): boolean => (GLOBAL_FLAGS as readonly string[]).includes(name);
  for (const name of [...options.keys(), ...flags]) {
    if (known.values.has(name) || known.flags.has(name) || isGlobal(name)) continue;
    const all = [...known.values, ...known.flags, ...GLOBAL_FLAGS];
    throw new CliError(
      'unknown_option',
      `Unknown option --${short(name)} for \`${command}\`:${suggestion(name, all, (w) => `--${w}`)} ${HELP}`,
    );
  }
  for (const name of flags)
    if (known.values.has(name))
      throw new CliError('invalid_input', `--${name} needs a value: --${name} VALUE.`);
};
