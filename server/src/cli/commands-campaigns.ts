// An environment's campaigns from the command line (PROTOCOL.md §13.9): `import` of a bucketing-format file,
// which replaces them all, `report` and `panic on|off`. One campaign at a time: `campaign …`
// (commands-campaign.ts).
import { InputError } from '../errors.js';
import { required } from './args.js';
import { positional } from './inputs.js';
import type { CommandContext } from './context.js';
import { readJsonFile } from './json-file.js';
import { progressLine } from '../report/rollups/rollup-progress.js';
import { reportTable } from './report-table.js';

/** `import FILE --env E`: the file is read and checked before the store is opened. */
export const importCommand = async (context: CommandContext): Promise<void> => {
  const { args } = context;
  const path = positional(args, 1, 'the bucketing-format file', 'pass `import FILE --env E`');
  const envId = required(args, 'env', 'ENV_ID');
  const file = await readJsonFile(path);
  // Loaded here: its schema takes a few hundred milliseconds to load, which the other commands here never need.
  const { importOutcome, importWarnings } = await import('./import-file.js');
  const count = await context.withOperations('write', (ops) => ops.importCampaigns(envId, file));
  const { value, human } = importOutcome(envId, count, importWarnings(file));
  context.print(value, human);
};

/**
 * `report --rebuild`: forgets the report rollups and folds every stored row again, with a progress line on
 * stderr every few seconds (issue 31: recovery, upgrades, or a check that the rollups equal their rows).
 */
const rebuildCommand = async (context: CommandContext): Promise<void> => {
  let said = 0;
  const outcome = await context.withOperations('write', (ops) =>
    ops.rebuildReports((progress) => {
      if (progress.elapsedMs - said < 2_000) return;
      said = progress.elapsedMs;
      context.note(progressLine(progress));
    }),
  );
  context.print(
    { rebuilt: true, rows: outcome.total, elapsed_ms: outcome.elapsedMs },
    `Report rollups rebuilt from ${outcome.total.toLocaleString('en-US')} stored rows in ${(outcome.elapsedMs / 1000).toFixed(1)} s.`,
  );
};

/** `report --env E [--campaign idOrSlug]`: §14.5 bodies with --json, else a table; `report --rebuild`. */
export const reportCommand = async (context: CommandContext): Promise<void> => {
  const { args } = context;
  if (args.flags.has('rebuild')) return rebuildCommand(context);
  const envId = required(args, 'env', 'ENV_ID');
  const only = args.options.get('campaign');
  // The table names campaigns and groups, which reports leave out: the campaigns are read alongside.
  const [reports, campaigns] = await context.withOperations('read', (ops) =>
    Promise.all([ops.reports(envId, only), context.json ? [] : ops.listCampaigns(envId)]),
  );
  // One campaign asked for: its body itself (§14.5), as `report --campaign` always printed.
  const [first] = reports;
  context.print(
    only !== undefined && first !== undefined ? { ...first } : { reports },
    reports.length === 0 ? `Environment ${envId} has no campaigns yet.` : reportTable(reports, campaigns),
  );
};

/** `panic on|off --env E`: every decision of the environment answers nothing while on (§3). */
export const panicCommand = async (context: CommandContext): Promise<void> => {
  const { args } = context;
  const state = args.words[1];
  if (state !== 'on' && state !== 'off') throw new InputError('Unknown command: use `panic on|off --env E`.');
  const envId = required(args, 'env', 'ENV_ID');
  const environment = await context.withOperations('write', (ops) => ops.setPanic(envId, state === 'on'));
  const panic = environment.panic ? 'on' : 'off';
  context.print(
    { envId: environment.id, panic },
    environment.panic
      ? `Panic is on for ${environment.id}: decisions and bucketing files serve no campaign until \`panic off\`.`
      : `Panic is off for ${environment.id}: campaigns are served again.`,
  );
};
