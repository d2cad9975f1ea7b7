// An environment's campaigns from the command line (PROTOCOL.md §13.9): `import` of a bucketing-format file,
// which replaces them all, `report` and `panic on|off`. One campaign at a time: `campaign …`
// (commands-campaign.ts).
import { InputError } from '../errors.js';
import { required } from './args.js';
import type { CommandContext } from './context.js';
import { importOutcome, importWarnings, readJsonFile } from './import-file.js';
import { reportTable } from './report-table.js';

/** `import FILE --env E`: the file is read and checked before the store is opened. */
export const importCommand = async (context: CommandContext): Promise<void> => {
  const { args } = context;
  const path = args.words[1] ?? required(args, 'file', 'FILE');
  const envId = required(args, 'env', 'ENV_ID');
  const file = await readJsonFile(path);
  const count = await context.withOperations('write', (ops) => ops.importCampaigns(envId, file));
  const { value, human } = importOutcome(envId, count, importWarnings(file));
  context.print(value, human);
};

/** `report --env E [--campaign idOrSlug]`: §14.5 bodies with --json, else a table. */
export const reportCommand = async (context: CommandContext): Promise<void> => {
  const { args } = context;
  const envId = required(args, 'env', 'ENV_ID');
  const only = args.options.get('campaign');
  const reports = await context.withOperations('read', (ops) => ops.reports(envId, only));
  // One campaign asked for: its body itself (§14.5), as `report --campaign` always printed.
  const [first] = reports;
  context.print(
    only !== undefined && first !== undefined ? { ...first } : { reports },
    reports.length === 0 ? `Environment ${envId} has no campaigns yet.` : reportTable(reports),
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
