// The campaign as the editor holds it while it is typed in: every value as text (so a half-typed number or JSON
// is kept as typed), read into the remote control API's body (docs/remote-control.md#campaign-json) by
// `draftToBody`, which also checks what the server would refuse and names each problem by the path the server
// would use (`variation_groups[0].variations[1].allocation`), so client and server errors land in one place.
import type { CampaignState, JsonValue, RemoteCampaign } from 'feature-ts/protocol';
import { analysisBody, analysisDraftOf, type AnalysisDraft } from './analysis-fields.js';
import {
  checkFlagKeys,
  flagRowsOf,
  flagValuesBody,
  missingCell,
  type FlagCellDraft,
  type FlagRowDraft,
} from './flag-rows.js';
import { ALL_USERS_KEY, formatTargetValue, parseTargetValue, type ValueKind } from './targeting-values.js';

/** A variation being edited; `id` null for a new one (the server makes it). */
export interface VariationDraft {
  id: string | null;
  name: string;
  reference: boolean;
  allocation: string;
  /** modifications.type, kept as stored ("FLAG" for new ones). */
  modsType: string;
  /** Its value of each of the group's flags, in the order of `GroupDraft.flags`. */
  cells: FlagCellDraft[];
}

/** A targeting rule being edited. */
export interface TargetingDraft {
  key: string;
  operator: string;
  kind: ValueKind;
  text: string;
}

/** A variation group being edited: targeting groups (any matches) of rules (all must match). */
export interface GroupDraft {
  id: string | null;
  name: string;
  targetingGroups: TargetingDraft[][];
  /** The flags the variations set: the rows of the flags grid. */
  flags: FlagRowDraft[];
  variations: VariationDraft[];
}

/** The whole campaign being edited. */
export interface CampaignDraft {
  name: string;
  description: string;
  slug: string;
  type: string;
  /** The state a new campaign starts in (an existing one changes state through the toggle route). */
  state: CampaignState;
  /** The traffic share in percents, as typed. */
  share: string;
  /** Bucket ranges that are not a plain [[0, share]]: kept as they are until a share is typed. */
  customRanges: Array<[number, number]> | null;
  /** 1-based position in the environment's order, as typed (editing only). */
  position: string;
  /** The position when loaded (1-based), to send `position` only when it changed. */
  loadedPosition: number | null;
  groups: GroupDraft[];
  /** The analysis settings (PROTOCOL.md §14.6). */
  analysis: AnalysisDraft;
}

/** A problem with a field: `live` ones show while typing, the others once a save is tried. */
export interface Issue {
  message: string;
  live: boolean;
}

/** The rule that targets every visitor. */
export const allUsersRule = (): TargetingDraft => ({
  key: ALL_USERS_KEY,
  operator: 'EQUALS',
  kind: 'none',
  text: '',
});

/** A blank targeting rule. */
export const blankRule = (): TargetingDraft => ({ key: '', operator: 'EQUALS', kind: 'text', text: '' });

/** A new variation of a group with `flagCount` flags, none filled in yet. */
export const blankVariation = (
  name: string,
  reference = false,
  allocation = 0,
  flagCount = 0,
): VariationDraft => ({
  id: null,
  name,
  reference,
  allocation: String(allocation),
  modsType: 'FLAG',
  cells: Array.from({ length: flagCount }, missingCell),
});

/** A new variation group targeting everyone, with an original and one variation sharing the traffic. */
export const blankGroup = (name: string): GroupDraft => ({
  id: null,
  name,
  targetingGroups: [[allUsersRule()]],
  flags: [],
  variations: [blankVariation('Original', true, 50), blankVariation('Variation 1', false, 50)],
});

/** The draft of a new campaign. */
export const newCampaignDraft = (): CampaignDraft => ({
  name: '',
  description: '',
  slug: '',
  type: 'ab',
  state: 'active',
  share: '100',
  customRanges: null,
  position: '',
  loadedPosition: null,
  groups: [blankGroup('Everyone')],
  analysis: analysisDraftOf(undefined),
});

const rangesShare = (ranges: ReadonlyArray<readonly [number, number]>): number =>
  Math.round(ranges.reduce((sum, [from, to]) => sum + (to - from), 0) * 100) / 100;

/** The share of traffic bucket ranges cover, in percents. */
export const trafficShare = rangesShare;

/** The draft of a stored campaign; `index` is its 0-based place in the environment's order. */
export const draftOf = (campaign: RemoteCampaign, index: number | null): CampaignDraft => {
  const ranges = campaign.bucket_ranges;
  const plain = ranges.length === 1 && ranges[0]?.[0] === 0;
  return {
    name: campaign.name,
    description: campaign.description,
    slug: campaign.slug ?? '',
    type: campaign.type,
    state: campaign.state,
    share: String(rangesShare(ranges)),
    customRanges: plain ? null : ranges.map(([from, to]): [number, number] => [from, to]),
    position: index === null ? '' : String(index + 1),
    loadedPosition: index === null ? null : index + 1,
    groups: campaign.variation_groups.map((group) => {
      const flags = flagRowsOf(group.variations.map((v) => v.modifications.value));
      return {
        id: group.id,
        name: group.name,
        targetingGroups: group.targeting.targeting_groups.map((tg) =>
          tg.targetings.map((t) => ({
            key: t.key,
            operator: t.operator,
            ...formatTargetValue(t.operator, t.value),
          })),
        ),
        flags: flags.rows,
        variations: group.variations.map((v, k) => ({
          id: v.id,
          name: v.name,
          reference: v.reference,
          allocation: String(v.allocation),
          modsType: v.modifications.type,
          cells: flags.cells[k] ?? [],
        })),
      };
    }),
    analysis: analysisDraftOf(campaign.analysis),
  };
};

const allocationOf = (text: string): number | null => {
  const value = text.trim() === '' ? Number.NaN : Number(text);
  return Number.isInteger(value) && value >= 0 && value <= 100 ? value : null;
};

/** The sum of a group's allocations (unreadable ones count 0). */
export const allocatedSum = (group: GroupDraft): number =>
  group.variations.reduce((sum, v) => sum + (allocationOf(v.allocation) ?? 0), 0);

/** A variation's body, checking its allocation and flag values. */
const variationBody = (
  group: GroupDraft,
  v: VariationDraft,
  at: string,
  types: Map<string, { type: string; index: number }>,
  k: number,
  issue: (path: string, message: string, live: boolean) => void,
): Record<string, JsonValue> => {
  if (v.name.trim() === '') issue(`${at}.name`, 'is required: name the variation', false);
  const allocation = allocationOf(v.allocation);
  if (allocation === null) issue(`${at}.allocation`, 'must be a whole number from 0 to 100', true);
  const value = flagValuesBody(group.flags, v.cells, `${at}.modifications.value`, k, types, issue);
  return {
    ...(v.id === null ? {} : { id: v.id }),
    name: v.name.trim(),
    reference: v.reference,
    allocation: allocation ?? 0,
    modifications: { type: v.modsType, value },
  };
};

const groupBody = (
  group: GroupDraft,
  at: string,
  issue: (path: string, message: string, live: boolean) => void,
): Record<string, JsonValue> => {
  if (group.name.trim() === '') issue(`${at}.name`, 'is required: name the group', false);
  const targetingGroups = group.targetingGroups.map((rules, j) => ({
    targetings: rules.map((rule, r) => {
      const path = `${at}.targeting.targeting_groups[${j}].targetings[${r}]`;
      if (rule.key.trim() === '') issue(`${path}.key`, 'is required: the context key to compare', false);
      const parsed = parseTargetValue(rule.key.trim() === ALL_USERS_KEY ? 'none' : rule.kind, rule.text);
      if (!parsed.ok) issue(`${path}.value`, parsed.error, true);
      return { key: rule.key.trim(), operator: rule.operator, value: parsed.ok ? parsed.value : '' };
    }),
  }));
  checkFlagKeys(group.flags, at, issue);
  const types = new Map<string, { type: string; index: number }>();
  const variations = group.variations.map((v, k) =>
    variationBody(group, v, `${at}.variations[${k}]`, types, k, issue),
  );
  const problems: string[] = [];
  const sum = allocatedSum(group);
  if (sum > 100) problems.push(`allocations sum to ${sum} %, more than 100 %`);
  const references = group.variations.filter((v) => v.reference).length;
  if (references !== 1) problems.push(`must have exactly one reference variation (found ${references})`);
  if (group.variations.length === 0) problems.push('needs at least one variation');
  if (problems.length > 0) issue(`${at}.variations`, problems.join('; '), true);
  return {
    ...(group.id === null ? {} : { id: group.id }),
    name: group.name.trim(),
    targeting: { targeting_groups: targetingGroups },
    variations,
  };
};

/** The body to send (POST when `creating`, else PATCH) and the problems found on the way, by field path. */
export const draftToBody = (
  draft: CampaignDraft,
  creating: boolean,
): { body: Record<string, JsonValue>; issues: Map<string, Issue> } => {
  const issues = new Map<string, Issue>();
  const issue = (path: string, message: string, live: boolean): void => {
    const earlier = issues.get(path);
    issues.set(
      path,
      earlier === undefined ? { message, live } : { message: `${earlier.message}; ${message}`, live },
    );
  };
  if (draft.name.trim() === '') issue('name', 'is required: name the campaign', false);
  let ranges: Array<[number, number]> = draft.customRanges ?? [];
  if (draft.customRanges === null) {
    const share = draft.share.trim() === '' ? Number.NaN : Number(draft.share);
    if (!(share > 0 && share <= 100))
      issue('bucket_ranges', 'must be a share above 0 and at most 100 %', true);
    else ranges = [[0, share]];
  }
  if (draft.groups.length === 0) issue('variation_groups', 'needs at least one variation group', true);
  const body: Record<string, JsonValue> = {
    name: draft.name.trim(),
    description: draft.description,
    type: draft.type,
    slug: draft.slug.trim() === '' ? null : draft.slug.trim(),
    variation_groups: draft.groups.map((group, i) => groupBody(group, `variation_groups[${i}]`, issue)),
    bucket_ranges: ranges,
    analysis: analysisBody(draft.analysis, issue),
  };
  if (creating) body.state = draft.state;
  else if (draft.position.trim() !== String(draft.loadedPosition ?? '')) {
    const position = Number(draft.position);
    if (!Number.isInteger(position) || position < 1)
      issue('position', 'must be a whole number from 1 (first); past the end means last', true);
    else body.position = position - 1;
  }
  return { body, issues };
};
