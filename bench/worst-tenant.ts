// The costliest environments one tenant can build within the limits (CAMPAIGN_LIMITS, CONTEXT_LIMITS; issue
// 29), each with the context that costs it most. Every file passes the import's validation and the store's
// size limits (checked by `withinLimits`), so each is one a tenant could really store and fire decisions at.
import {
  CAMPAIGN_LIMITS,
  CONTEXT_LIMITS,
  PATTERN_ITEM_MIN_CHARACTERS,
  PATTERN_OPERATORS,
  type BucketingCampaign,
  type BucketingFile,
  type Targeting,
  type VisitorContext,
} from '../src/protocol/index.js';

/** One candidate: a file, and the contexts that make its decisions costliest. */
export interface WorstCase {
  /** What it stresses, for the bench's note. */
  name: string;
  file: BucketingFile;
  /**
   * The context of decision `i`: its long values differ from one decision to the next, as an attacker's
   * would, so that no decision reuses what the previous one read.
   */
  context: (i: number) => VisitorContext;
}

/** Under the environment's total, with room for JSON's punctuation between campaigns. */
const BUDGET = CAMPAIGN_LIMITS.maxEnvironmentBytes - 64 * 1024;
/** Under one campaign's limit. */
const PER_CAMPAIGN = CAMPAIGN_LIMITS.maxCampaignBytes - 16 * 1024;
const LONG = CONTEXT_LIMITS.maxStringValueLength;

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** What a rule counts toward the environment's pattern characters (as the store counts it). */
const patternChars = (rule: Targeting): number =>
  PATTERN_OPERATORS.includes(rule.operator)
    ? (Array.isArray(rule.value) ? rule.value : [rule.value]).reduce<number>(
        (n, t) => n + (typeof t === 'string' ? Math.max(t.length, PATTERN_ITEM_MIN_CHARACTERS) : 0),
        0,
      )
    : 0;

/** A campaign of groups of `rules` each, every group failing on its last rule so that all are evaluated. */
const campaignOf = (id: string, groups: Targeting[][]): BucketingCampaign => ({
  id,
  name: id,
  type: 'ab',
  variationGroups: groups.map((targetings, g) => ({
    id: `${id}g${g}`,
    name: `g${g}`,
    targeting: { targetingGroups: [{ targetings }] },
    variations: [
      {
        id: `${id}g${g}v`,
        name: 'v',
        reference: true,
        allocation: 100,
        modifications: { type: 'FLAG', value: { [`f${id}`]: g } },
      },
    ],
  })),
});

/**
 * Fills campaigns with groups made by `group(i)` until the environment's budget: each group must end on a
 * rule that fails under the candidate's context.
 */
const fill = (
  prefix: string,
  group: (i: number) => Targeting[],
  maxGroups = Infinity,
): BucketingCampaign[] => {
  const campaigns: BucketingCampaign[] = [];
  let total = 0;
  let rules = 0;
  let items = 0;
  let patterns = 0;
  let i = 0;
  while (campaigns.length < CAMPAIGN_LIMITS.maxCampaignsPerEnvironment) {
    const groups: Targeting[][] = [];
    let size = bytes(campaignOf(`${prefix}${campaigns.length}`, []));
    while (i < maxGroups) {
      const next = group(i);
      const added = bytes(campaignOf('x', [next])) - bytes(campaignOf('x', []));
      if (size + added > PER_CAMPAIGN || total + size + added > BUDGET) break;
      const listed = next.reduce((n, t) => n + (Array.isArray(t.value) ? t.value.length : 0), 0);
      if (rules + next.length > CAMPAIGN_LIMITS.maxTargetingsPerEnvironment) break;
      if (items + listed > CAMPAIGN_LIMITS.maxListItemsPerEnvironment) break;
      const scanned = next.reduce((n, t) => n + patternChars(t), 0);
      if (patterns + scanned > CAMPAIGN_LIMITS.maxPatternCharactersPerEnvironment) break;
      groups.push(next);
      size += added;
      rules += next.length;
      items += listed;
      patterns += scanned;
      i++;
    }
    if (groups.length === 0) break;
    campaigns.push(campaignOf(`${prefix}${campaigns.length}`, groups));
    total += size;
  }
  return campaigns;
};

const file = (campaigns: BucketingCampaign[]): BucketingFile => ({
  panic: false,
  campaigns,
  accountSettings: { enabledXPC: false, enabled1V1T: false },
});

/** Deterministic pseudo-random a/b strings: overlapping prefixes and suffixes for the automata. */
const abString = (seed: number, length: number): string => {
  let s = '';
  let x = seed * 2654435761;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    s += x & 0x10000 ? 'a' : 'b';
  }
  return s;
};

/** Deterministic pseudo-random lowercase letters. */
const letters = (seed: number, length: number): string => {
  let s = '';
  let x = seed * 2654435761;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    s += String.fromCharCode(97 + ((x >>> 16) % 26));
  }
  return s;
};

/** The candidates, each at the limits. */
export const worstCases = (): WorstCase[] => {
  // 1. As many cheap rules as 8 MiB holds, on 150 keys, all evaluated (each group fails on its last rule).
  const keys = Array.from({ length: 150 }, (_, k) => `k${k}`);
  const rules: WorstCase = {
    name: 'most rules (NOT_EQUALS on 150 keys, groups of 50)',
    file: file(
      fill('r', (i) => [
        ...Array.from({ length: 49 }, (_, j) => ({
          key: keys[(i + j) % keys.length] ?? 'k0',
          operator: 'NOT_EQUALS',
          value: 'x',
        })),
        { key: 'k0', operator: 'EQUALS', value: 'no' },
      ]),
    ),
    context: (i) => Object.fromEntries(keys.map((k) => [k, `y${i}`])),
  };

  // 2. String comparisons as long as targets may be, against a value sharing all but their last character.
  const target = 'c'.repeat(CAMPAIGN_LIMITS.maxTargetLength - 1);
  const compares: WorstCase = {
    name: 'longest comparisons (GREATER_THAN, LOWER_THAN_OR_EQUALS, NOT_EQUALS, EQUALS on 1 024-character targets)',
    file: file(
      fill('s', (i) => [
        { key: 'q', operator: 'GREATER_THAN', value: `${target}${i % 2 === 0 ? 'b' : 'a'}` },
        { key: 'q', operator: 'LOWER_THAN_OR_EQUALS', value: `${target}${i % 2 === 0 ? 'd' : 'e'}` },
        { key: 'q', operator: 'NOT_EQUALS', value: `${target}${String.fromCharCode(97 + (i % 26))}` },
        { key: 'q', operator: 'EQUALS', value: `${target}${String.fromCharCode(97 + (i % 26))}` },
      ]),
    ),
    context: (i) => ({ q: `${'c'.repeat(LONG - 8)}${String(i).padStart(8, 'c')}` }),
  };

  // 3. CONTAINS, NOT_CONTAINS and STARTS_WITH lists of a/b items filling the pattern characters, on three
  //    keys scanned over three values of 8 192 a/b characters (every position continues a partial match),
  //    with EQUALS lists of 10 000 items filling the list items.
  const patternItems = (seed: number): string[] =>
    Array.from({ length: 2_700 }, (_, j) => abString(seed * 100_000 + j, 6 + (j % 12)));
  const listed: WorstCase = {
    name: 'longest lists (CONTAINS / NOT_CONTAINS / STARTS_WITH of a/b items on 3 values of 8 192 a/b, and EQUALS lists of 10 000)',
    file: file(
      fill('l', (i) => [
        i < 3
          ? {
              key: `q${i}`,
              operator: ['CONTAINS', 'STARTS_WITH', 'NOT_CONTAINS'][i] ?? 'CONTAINS',
              value: patternItems(i),
            }
          : {
              key: `q${i % 3}`,
              operator: 'EQUALS',
              value: Array.from({ length: CAMPAIGN_LIMITS.maxListItems }, (_, j) =>
                abString(i * 100_000 + j, 12),
              ),
            },
        { key: 'q0', operator: 'EQUALS', value: 'no' },
      ]),
    ),
    context: (i) => ({
      q0: abString(3 * i + 1, LONG),
      q1: abString(3 * i + 2, LONG),
      q2: abString(3 * i + 3, LONG),
    }),
  };

  // 4. SEMVER rules on values that are long pre-releases (not plain releases: each needs the full parser).
  const versions: WorstCase = {
    name: 'most SEMVER rules (on 3 values of 8 192-character pre-releases)',
    file: file(
      fill('v', (i) => [
        ...Array.from({ length: 29 }, (_, j) => ({
          key: `v${(i + j) % 3}`,
          operator: j % 2 === 0 ? 'SEMVER_GREATER_THAN' : 'SEMVER_NOT_EQUALS',
          value: `1.${j}.0-rc.1`,
        })),
        { key: 'v0', operator: 'SEMVER_LOWER_THAN', value: '0.0.1' },
      ]),
    ),
    context: (i) =>
      Object.fromEntries(
        [0, 1, 2].map((k) => [`v${k}`, `2.0.0-${'r'.repeat(LONG - 16)}${String(i).padStart(10, 'r')}`]),
      ),
  };

  // 5. Every pattern present in the value: the items are the value's own substrings (a tenant writes both),
  //    as many as the pattern characters allow, so a CONTAINS scan visits every one; one rule never matches,
  //    so no scan stops early.
  // Over 26 letters, nearly every 4- to 8-character substring is distinct: the most items the characters allow.
  const text = letters(7, LONG);
  let room = CAMPAIGN_LIMITS.maxPatternCharactersPerEnvironment - PATTERN_ITEM_MIN_CHARACTERS;
  const present: string[] = [];
  for (let length = 4; room >= PATTERN_ITEM_MIN_CHARACTERS && length <= 64; length++) {
    const seen = new Set<string>();
    for (let at = 0; at + length <= text.length; at++) {
      const item = text.slice(at, at + length);
      const cost = Math.max(length, PATTERN_ITEM_MIN_CHARACTERS);
      if (seen.has(item) || cost > room) continue;
      seen.add(item);
      present.push(item);
      room -= cost;
    }
  }
  const chunks = Array.from({ length: Math.ceil(present.length / CAMPAIGN_LIMITS.maxListItems) }, (_, c) =>
    present.slice(c * CAMPAIGN_LIMITS.maxListItems, (c + 1) * CAMPAIGN_LIMITS.maxListItems),
  );
  const everyItem: WorstCase = {
    name: `every pattern present (${present.length} CONTAINS items, all substrings of the value)`,
    file: file(
      fill(
        'p',
        (i) => [
          { key: 'q', operator: 'CONTAINS', value: chunks[i] ?? [] },
          { key: 'q', operator: 'CONTAINS', value: 'zzzz' },
        ],
        chunks.length,
      ),
    ),
    // The text with its last character changed from one decision to the next: nothing of the previous scan is
    // reused, and every item but the few ending there is still present.
    context: (i) => ({ q: `${text.slice(0, -1)}${i % 2 === 0 ? 'y' : 'z'}` }),
  };

  // 6. SEMVER targets as long as they may be, sharing all their pre-release identifiers with the value's, so
  //    each comparison walks them all.
  const identifiers = (CAMPAIGN_LIMITS.maxVersionTargetLength - 6) / 2;
  const versionTarget = `1.0.0-${Array.from({ length: identifiers }, () => 'a').join('.')}`;
  const longVersions: WorstCase = {
    name: `longest SEMVER targets (${CAMPAIGN_LIMITS.maxVersionTargetLength} characters, ${identifiers} identifiers shared with the value)`,
    file: file(
      fill('t', (i) => [
        ...Array.from({ length: 29 }, (_, j) => ({
          key: `v${(i + j) % 3}`,
          operator: 'SEMVER_LOWER_THAN',
          value: versionTarget.slice(0, -1) + String.fromCharCode(98 + ((i + j) % 20)),
        })),
        { key: 'v0', operator: 'SEMVER_EQUALS', value: '0.0.1' },
      ]),
    ),
    context: (i) =>
      Object.fromEntries(
        [0, 1, 2].map((k) => [`v${k}`, `1.0.0-${'a.'.repeat((LONG - 20) / 2)}${String(i).padStart(8, 'a')}`]),
      ),
  };
  return [rules, compares, listed, versions, everyItem, longVersions];
};

/** The file's size, campaigns and targetings, for notes; throws when a limit is passed (a bug in this file). */
export const withinLimits = (worst: WorstCase): { bytes: number; campaigns: number; targetings: number } => {
  const sizes = worst.file.campaigns.map(bytes);
  const total = sizes.reduce((a, b) => a + b, 0);
  const rules = worst.file.campaigns
    .flatMap((c) => c.variationGroups)
    .flatMap((g) => g.targeting?.targetingGroups ?? [])
    .flatMap((tg) => tg.targetings);
  const items = rules.reduce((n, t) => n + (Array.isArray(t.value) ? t.value.length : 0), 0);
  const scanned = rules.reduce((n, t) => n + patternChars(t), 0);
  if (
    sizes.some((size) => size > CAMPAIGN_LIMITS.maxCampaignBytes) ||
    total > CAMPAIGN_LIMITS.maxEnvironmentBytes ||
    rules.length > CAMPAIGN_LIMITS.maxTargetingsPerEnvironment ||
    items > CAMPAIGN_LIMITS.maxListItemsPerEnvironment ||
    scanned > CAMPAIGN_LIMITS.maxPatternCharactersPerEnvironment ||
    worst.file.campaigns.length > CAMPAIGN_LIMITS.maxCampaignsPerEnvironment
  )
    throw new Error(`${worst.name}: past the limits`);
  if (bytes(worst.context(0)) > CONTEXT_LIMITS.maxSerializedBytes)
    throw new Error(`${worst.name}: context too big`);
  return { bytes: total, campaigns: worst.file.campaigns.length, targetings: rules.length };
};
