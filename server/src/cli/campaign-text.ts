// A campaign for the terminal (`feature-server campaign show|create|update|toggle` without --json): what an
// operator checks before and after a change (state, traffic, who is targeted, what each variation sets),
// not the whole JSON, which --json prints.
import type { AnalysisSettings, RemoteCampaign, RemoteVariationGroup } from 'feature-ts/protocol';
import { shortTime } from './inputs.js';
import { textTable } from './text-table.js';

/** A targeting group as a condition: its targetings all hold (and); a group's targeting groups are or'ed. */
const targetingText = (group: RemoteVariationGroup): string => {
  const alternatives = group.targeting.targeting_groups.map((tg) =>
    tg.targetings.map((t) => `${t.key} ${t.operator} ${JSON.stringify(t.value)}`).join(' and '),
  );
  // A group without targeting never matches (PROTOCOL.md §7): say so rather than print nothing.
  return alternatives.length === 0 ? 'nobody (no targeting group)' : alternatives.join(' or ');
};

/** What a variation sets, as `key=value` pairs (null: the key keeps its default). */
const flagsText = (value: Record<string, unknown>): string =>
  Object.entries(value)
    .map(([key, flag]) => `${key}=${JSON.stringify(flag)}`)
    .join(' ') || '-';

/** The lines of one variation group: its targeting, then a row per variation. */
const groupLines = (group: RemoteVariationGroup): string[] => [
  `Group ${group.id} "${group.name}": ${targetingText(group)}`,
  ...textTable(
    ['  variation', 'name', 'allocation', 'flags'],
    group.variations.map((v) => [
      `  ${v.id}`,
      `${v.name}${v.reference ? ' (reference)' : ''}`,
      `${v.allocation} %`,
      flagsText(v.modifications.value),
    ]),
    '  (no variations)',
  ).split('\n'),
];

/** The analysis settings in one line: the goal verdicts are drawn on, then how (PROTOCOL.md §14.6). */
const analysisText = (analysis: AnalysisSettings): string =>
  `${analysis.primary_goal === null ? 'no primary goal (no verdict)' : `primary goal ${analysis.primary_goal.type}:${analysis.primary_goal.name}`}, ${analysis.method}, alpha ${analysis.alpha}, ${analysis.expected_visitors} expected visitors`;

/** A campaign as readable lines. */
export const campaignText = (campaign: RemoteCampaign): string =>
  [
    `Campaign:    ${campaign.id}${campaign.slug === null ? '' : ` (slug ${campaign.slug})`}`,
    `Name:        ${campaign.name}`,
    ...(campaign.description === '' ? [] : [`Description: ${campaign.description}`]),
    `Type:        ${campaign.type}`,
    `State:       ${campaign.state}`,
    `Traffic:     ${campaign.bucket_ranges.map(([from, to]) => `${from}-${to} %`).join(', ')}`,
    `Analysis:    ${analysisText(campaign.analysis)}`,
    `Updated:     ${shortTime(campaign.updated_at)} (created ${shortTime(campaign.created_at)})`,
    ...campaign.variation_groups.flatMap(groupLines),
  ].join('\n');
