// `feature-server --help`: every command, one entry each (PROTOCOL.md §13.9). The table below is the one
// list of the CLI's commands, sub-commands and options: `--help` is rendered from it, and command-line.ts
// reads from it which words and options each command knows (an option is written `--name VALUE`, or
// `--name` alone for a flag; `[…]` marks it optional), so the help and the checks cannot drift apart.

/** One entry of the help: a command as typed, and what it does. */
export interface UsageEntry {
  /** The command's words (placeholders in capitals), then its options: `--name VALUE`, `--flag`, `[…]`. */
  readonly usage: string;
  /** What it does, in one sentence or two (wrapped when rendered). */
  readonly help: string;
  /** A placeholder of this usage and of later ones (`[ANALYSIS]`), explained under this entry. */
  readonly explains?: UsagePlaceholder;
}

/** A titled group of entries. */
interface UsageSection {
  readonly title: string;
  readonly entries: readonly UsageEntry[];
}

/** A placeholder such as `[ANALYSIS]`: a set of options written once for several commands. */
export interface UsagePlaceholder {
  /** As it appears in a usage: `ANALYSIS`. */
  readonly name: string;
  readonly help: string;
  /** Each option's usage (`--method sequential|fixed`) and help. */
  readonly entries: readonly UsageEntry[];
}

/** Options every command takes. */
export const GLOBAL_FLAGS = ['json', 'help'] as const;

/** The commands, by section, in the order `--help` lists them. */
export const USAGE_SECTIONS: readonly UsageSection[] = [
  {
    title: 'Server',
    entries: [
      {
        usage: 'serve',
        help: 'start the server (PORT, HOST, DATABASE_URL, FEATURE_DATA_DIR, LOG_LEVEL, LOG_FORMAT, FEATURE_OPERATOR_KEY); prints no sign-in link',
      },
      {
        usage: 'start [--sign-in-link]',
        help: 'seed the demo on first run, then serve (what `npm start` runs); a console sign-in link on a terminal, or with --sign-in-link',
      },
      { usage: 'demo', help: 'seed the demo account, environment and campaigns if absent' },
      {
        usage: 'console [--url URL] [--sign-in-link]',
        help: "a one-time sign-in link to the running server's console at /admin, printed on a terminal, or elsewhere with --sign-in-link (a link opens an operator session: keep it out of logs); --url: a server elsewhere, with FEATURE_OPERATOR_KEY",
      },
      {
        usage: 'console end-sessions',
        help: 'sign every browser out of the console, on every server, and void unused sign-in links',
      },
    ],
  },
  {
    title: 'Accounts and environments',
    entries: [
      { usage: 'account create --name N', help: 'create an account' },
      { usage: 'account list', help: 'list the accounts' },
      {
        usage: 'env create --account A --name N [--xpc] [--1v1t]',
        help: 'create an environment; prints its API key once',
      },
      { usage: 'env list --account A', help: "list an account's environments" },
      {
        usage: 'env rotate-key --env E',
        help: "replace an environment's API key (the old one stops at once)",
      },
      {
        usage: 'panic on|off --env E',
        help: 'serve no campaign at all (on), or serve them again (off)',
      },
    ],
  },
  {
    title: 'Campaigns and reports',
    entries: [
      {
        usage: 'import FILE --env E',
        help: "replace the environment's campaigns with a bucketing-format file",
      },
      {
        usage: 'campaign list --env E',
        help: "list the environment's campaigns, in their stored order",
      },
      { usage: 'campaign show ID|SLUG --env E', help: 'show a campaign' },
      {
        usage: 'campaign create FILE --env E [ANALYSIS]',
        help: "create a campaign from a JSON file in the remote control API's form (snake_case); it goes last",
      },
      {
        usage: 'campaign update ID [FILE] --env E [ANALYSIS]',
        help: 'change the fields the JSON file gives (a list given replaces the whole list; "position": n moves the campaign), and the analysis settings the options give',
        explains: {
          name: 'ANALYSIS',
          help: "the report's settings, each option optional (the others are kept; never set: the default)",
          entries: [
            {
              usage: '--primary-goal event:ACTION|transaction:AFFILIATION|none',
              help: 'the goal verdicts are drawn on (none: no verdict, every goal exploratory; the default)',
            },
            {
              usage: '--method sequential|fixed',
              help: 'sequential (default): valid however often the report is read; fixed: valid only when read once, at a size fixed in advance',
            },
            { usage: '--alpha 0.001-0.2', help: 'the false-positive rate accepted (default 0.05)' },
            {
              usage: '--expected-visitors 100-100000000',
              help: "the group's visitors at which a decision is expected (default 5000)",
            },
          ],
        },
      },
      {
        usage: 'campaign toggle ID --env E --state active|paused|interrupted',
        help: "change a campaign's state (interrupted is final)",
      },
      {
        usage: 'campaign delete ID --env E',
        help: 'delete a campaign (its ids stay taken, its report readable)',
      },
      {
        usage: 'report --env E [--campaign idOrSlug]',
        help: 'campaign reports (a table without --json)',
      },
      {
        usage: 'report --rebuild',
        help: 'fold every stored row into the report rollups again (recovery)',
      },
    ],
  },
  {
    title: 'Remote control accesses',
    entries: [
      {
        usage: 'access create --account A --name N --actions a,b [--envs e1,e2]',
        help: 'create an access; prints its client secret once (no --envs: every environment of the account)',
      },
      { usage: 'access list --account A', help: "list an account's accesses" },
      { usage: 'access show ID', help: 'show an access' },
      { usage: 'access revoke ID', help: 'revoke an access (its tokens stop at their next use)' },
    ],
  },
  {
    title: 'People',
    entries: [
      {
        usage: 'user invite --account A --email E --role admin|editor|viewer',
        help: 'invite a person; prints their one-time link (7 days)',
      },
      { usage: 'user list --account A', help: "list an account's members and their roles" },
      { usage: 'user role USER --account A --role R', help: "change a member's role (USER: id or email)" },
      { usage: 'user remove USER --account A', help: 'remove a member from the account' },
      { usage: 'user reset-link USER --account A', help: 'make a one-time password reset link (1 hour)' },
    ],
  },
];

/** The help's width, and the column where every entry's help starts. */
const WIDTH = 110;
const HELP_COLUMN = 42;

/** `text` in lines of at most `width` characters (a longer word gets a line of its own). */
const wrap = (text: string, width: number): string[] => {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
};

/**
 * An entry at `indent`: its usage, then its help from the help column (3 spaces after a usage that reaches
 * it), continued on lines of their own at the help column.
 */
const entryLines = ({ usage, help }: UsageEntry, indent: number): string[] => {
  const head = `${' '.repeat(indent)}${usage}`;
  const start = head.length + 2 <= HELP_COLUMN ? HELP_COLUMN : head.length + 3;
  const [first = '', ...rest] = wrap(help, WIDTH - start);
  const more = wrap(rest.join(' '), WIDTH - HELP_COLUMN).filter((line) => line !== '');
  return [`${head.padEnd(start)}${first}`, ...more.map((line) => `${' '.repeat(HELP_COLUMN)}${line}`)];
};

/** A placeholder's lines: what it stands for, then its options. */
const placeholderLines = ({ name, help, entries }: UsagePlaceholder): string[] => [
  ...wrap(`${name}: ${help}`, WIDTH - 4).map((line, i) =>
    i === 0 ? `    ${line}` : `${' '.repeat(HELP_COLUMN)}${line}`,
  ),
  ...entries.flatMap((entry) => entryLines(entry, 6)),
];

const FOOTER = [
  'Every command works on DATABASE_URL (PostgreSQL), else on the embedded store in FEATURE_DATA_DIR',
  '(./.feature-data); while a server holds that folder, commands go through that server. With --json, every',
  'outcome, errors included, is one JSON object on stdout.',
];

/** The usage text. */
export const USAGE = [
  'Usage: feature-server <command> [--json]',
  ...USAGE_SECTIONS.flatMap((section) => [
    '',
    section.title,
    ...section.entries.flatMap((entry) => [
      ...entryLines(entry, 2),
      ...(entry.explains === undefined ? [] : placeholderLines(entry.explains)),
    ]),
  ]),
  '',
  ...FOOTER,
].join('\n');
