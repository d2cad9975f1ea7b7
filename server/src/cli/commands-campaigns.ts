// An environment's campaigns from the command line (PROTOCOL.md §13.9): `import` of a bucketing-format file,
// `report`, `panic on|off`, and `campaign list|toggle`. Creating, editing and deleting single campaigns is
// the remote control API's (§13.5); a file import replaces them all.
import type { CampaignState } from 'feature-ts/protocol';
import { InputError } from '../errors.js';
import { CAMPAIGN_STATES } from '../remote/campaign-format.js';
import { required } from './args.js';
import type { CommandContext } from './context.js';
import { readJsonFile } from './import-file.js';
import { positional } from './inputs.js';
import { reportTable } from './report-table.js';
import { textTable } from './text-table.js';

/** `import FILE --env E`: the file is read and checked before the store is opened. */
export const importCommand = async (context: CommandContext): Promise<void> => {
  const { args } = context;
  const path = args.words[1] ?? required(args, 'file', 'FILE');
  const envId = required(args, 'env', 'ENV_ID');
  const file = await readJsonFile(path);
  const count = await context.withOperations('write', (ops) => ops.importCampaigns(envId, file));
  context.print({ envId, campaigns: count }, `${count} campaign(s) imported into ${envId}.`);
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

const CAMPAIGN_USAGE =
  'use `campaign list --env E` or `campaign toggle ID --env E --state active|paused|interrupted` ' +
  '(create, edit and delete campaigns with `import FILE --env E` or the remote control API)';

/** `campaign list --env E`, `campaign toggle ID --env E --state S`. */
export const campaignCommand = async (context: CommandContext): Promise<void> => {
  const { args } = context;
  switch (args.words[1]) {
    case 'list': {
      const envId = required(args, 'env', 'ENV_ID');
      const campaigns = await context.withOperations('read', (ops) => ops.listCampaigns(envId));
      context.print(
        { campaigns },
        textTable(
          ['id', 'slug', 'type', 'state', 'name'],
          campaigns.map((c) => [c.id, c.slug ?? '-', c.type, c.state, c.name]),
          `Environment ${envId} has no campaigns: import some with \`feature-server import FILE --env ${envId}\`.`,
        ),
      );
      return;
    }
    case 'toggle': {
      const campaignId = positional(
        args,
        2,
        'the campaign id',
        'pass `campaign toggle ID --env E --state S`',
      );
      const envId = required(args, 'env', 'ENV_ID');
      const state = required(args, 'state', CAMPAIGN_STATES.join('|'));
      if (!(CAMPAIGN_STATES as readonly string[]).includes(state))
        throw new InputError(`--state must be one of ${CAMPAIGN_STATES.join(', ')}.`);
      const campaign = await context.withOperations('write', (ops) =>
        ops.toggleCampaign(envId, campaignId, state as CampaignState),
      );
      context.print({ campaign }, `Campaign ${campaign.id} is ${campaign.state}.`);
      return;
    }
    default:
      throw new InputError(`Unknown command: ${CAMPAIGN_USAGE}.`);
  }
};
