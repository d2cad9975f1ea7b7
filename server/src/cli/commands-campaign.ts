// `feature-server campaign …` (PROTOCOL.md §13.9): one environment's campaigns listed, shown, created,
// updated, toggled and deleted, with the remote control API's campaign JSON (§13.5, snake_case) in files and
// answers. On the store, the API's own reading of a body (campaignFromRemote) and the store's checks; through
// a running server, the API's routes under /admin/v1/environments/{envId}: either way the same objects and
// the same refusals (a field named by its path, a taken id or slug a conflict, interrupted final).
import type { CampaignState } from 'feature-ts/protocol';
import { InputError } from '../errors.js';
import { CAMPAIGN_STATES } from '../validation/campaign-rules.js';
import { ANALYSIS_USAGE, analysisOptions, withAnalysisOptions } from './analysis-options.js';
import { required } from './args.js';
import { campaignText } from './campaign-text.js';
import type { CommandContext } from './context.js';
import { readJsonFile } from './json-file.js';
import { positional } from './inputs.js';
import { textTable } from './text-table.js';

const USAGE = [
  '`campaign list --env E`',
  '`campaign show ID|SLUG --env E`',
  `\`campaign create FILE --env E ${ANALYSIS_USAGE}\``,
  `\`campaign update ID [FILE] --env E ${ANALYSIS_USAGE}\``,
  '`campaign toggle ID --env E --state active|paused|interrupted`',
  '`campaign delete ID --env E`',
].join(', ');

/** The campaign id (the word after the subcommand), required, with the subcommand's usage when missing. */
const campaignId = (context: CommandContext, usage: string): string =>
  positional(context.args, 2, 'the campaign id', `pass \`${usage}\``);

/** `campaign list|show|create|update|toggle|delete`. */
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
          `Environment ${envId} has no campaigns: create one with \`feature-server campaign create FILE --env ${envId}\`.`,
        ),
      );
      return;
    }
    case 'show': {
      const wanted = positional(args, 2, 'the campaign id or slug', 'pass `campaign show ID|SLUG --env E`');
      const envId = required(args, 'env', 'ENV_ID');
      const campaign = await context.withOperations('read', (ops) => ops.getCampaign(envId, wanted));
      context.print({ campaign }, campaignText(campaign));
      return;
    }
    case 'create': {
      const path = positional(args, 2, 'the campaign file', 'pass `campaign create FILE --env E`');
      const envId = required(args, 'env', 'ENV_ID');
      const analysis = analysisOptions(args);
      // Read before the store is opened: a missing or broken file changes nothing.
      const body = withAnalysisOptions(await readJsonFile(path), analysis);
      const campaign = await context.withOperations('write', (ops) => ops.createCampaign(envId, body));
      context.print(
        { campaign },
        `Campaign ${campaign.id} created (${campaign.state}, last in the stored order).\n${campaignText(campaign)}`,
      );
      return;
    }
    case 'update': {
      const id = campaignId(context, 'campaign update ID [FILE] --env E');
      const analysis = analysisOptions(args);
      // The file is optional when an analysis option says what to change (`--alpha 0.01`).
      const path =
        analysis !== undefined && args.words[3] === undefined
          ? undefined
          : positional(
              args,
              3,
              'the file of fields to change',
              `pass \`campaign update ID FILE --env E\`, or an analysis option: \`campaign update ID --env E ${ANALYSIS_USAGE}\``,
            );
      const envId = required(args, 'env', 'ENV_ID');
      const body = withAnalysisOptions(path === undefined ? {} : await readJsonFile(path), analysis);
      const campaign = await context.withOperations('write', (ops) => ops.updateCampaign(envId, id, body));
      context.print({ campaign }, `Campaign ${campaign.id} updated.\n${campaignText(campaign)}`);
      return;
    }
    case 'toggle': {
      const id = campaignId(context, 'campaign toggle ID --env E --state S');
      const envId = required(args, 'env', 'ENV_ID');
      const state = required(args, 'state', CAMPAIGN_STATES.join('|'));
      if (!(CAMPAIGN_STATES as readonly string[]).includes(state))
        throw new InputError(`--state must be one of ${CAMPAIGN_STATES.join(', ')}.`);
      const campaign = await context.withOperations('write', (ops) =>
        ops.toggleCampaign(envId, id, state as CampaignState),
      );
      context.print(
        { campaign },
        campaign.state === 'active'
          ? `Campaign ${campaign.id} is active: decisions and the bucketing file serve it.`
          : `Campaign ${campaign.id} is ${campaign.state}: decisions and the bucketing file leave it out${campaign.state === 'interrupted' ? ' for good (interrupted is final)' : ''}.`,
      );
      return;
    }
    case 'delete': {
      const id = campaignId(context, 'campaign delete ID --env E');
      const envId = required(args, 'env', 'ENV_ID');
      await context.withOperations('write', (ops) => ops.deleteCampaign(envId, id));
      context.print(
        { deleted: id },
        `Campaign ${id} deleted: decisions and the bucketing file leave it out; its ids stay taken and its report stays readable.`,
      );
      return;
    }
    default:
      throw new InputError(`Unknown command: use ${USAGE}.`);
  }
};
