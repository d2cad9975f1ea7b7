// A bucketing file checked and indexed once (PROTOCOL.md §6), so that each evaluation only hashes, reads
// tables and calls precompiled targeting closures. Malformed parts are dropped here with a reason: a dropped
// campaign or variation group is one that never matches, which is what §6 asks of them.
import {
  isJsonObject,
  type AccountSettings,
  type DecisionCampaign,
  type JsonValue,
} from '../protocol/index.js';
import { allocationTable, type AllocationGroup } from './allocation.js';
import { murmur3Prefix } from './murmur3.js';
import { FileReads } from './file-reads.js';
import { compileTargeting, type TargetingPredicate } from './targeting.js';

/** A variation and the two forms of the decision campaign that assigns it, built once and frozen. */
export interface CompiledVariation {
  /** The variation id. */
  readonly id: string;
  /** The campaign as the decision gives it without exposeAllKeys: null values left out (§9.2). */
  readonly plain: DecisionCampaign;
  /** With exposeAllKeys: the group's other keys added with null (§9.2). */
  readonly exposed: DecisionCampaign;
}

/** A variation group that can match: its targeting and what allocation needs. */
export interface CompiledGroup extends AllocationGroup {
  /** The group's compiled targeting (§7). */
  readonly match: TargetingPredicate;
  /** Its variations, in the file's order (the walk's order). */
  readonly variations: readonly CompiledVariation[];
}

/** A campaign that can match. */
export interface CompiledCampaign {
  /** The campaign id. */
  readonly id: string;
  /** Whether it is an `ab` campaign (§8.6). */
  readonly ab: boolean;
  /** Flat `[from, to, …]` bucket ranges, or null for all traffic (`[[0, 100]]` or absent). */
  readonly ranges: readonly number[] | null;
  /** The variation groups that can match, in order; malformed ones are left out. */
  readonly groups: readonly CompiledGroup[];
}

type Obj = Record<string, unknown>;

/** A frozen deep copy of a JSON value, or undefined when `v` is not one. `__proto__` keys are left out. */
const copyJson = (v: unknown): JsonValue | undefined => {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (Array.isArray(v)) {
    const items = v.map(copyJson);
    return items.includes(undefined) ? undefined : (Object.freeze(items as JsonValue[]) as JsonValue[]);
  }
  if (!isJsonObject(v)) return undefined;
  const out: Record<string, JsonValue> = {};
  for (const [key, item] of Object.entries(v)) {
    const copy = copyJson(item);
    if (copy === undefined) return undefined;
    if (key !== '__proto__') out[key] = copy;
  }
  return Object.freeze(out);
};

/** The (frozen) decision campaign of one variation, with the given modification values. */
const decisionCampaign = (
  c: Obj,
  g: Obj,
  v: Obj,
  type: string,
  value: Record<string, JsonValue>,
): DecisionCampaign =>
  Object.freeze({
    id: c.id as string,
    name: c.name as string,
    slug: typeof c.slug === 'string' ? c.slug : null,
    type: c.type as string,
    variationGroupId: g.id as string,
    variationGroupName: g.name as string,
    variation: Object.freeze({
      id: v.id as string,
      name: v.name as string,
      reference: v.reference === true,
      modifications: Object.freeze({ type, value: Object.freeze(value) }),
    }),
  });

/**
 * The engine's own copy of a string used as a property key at every decision (group ids, in
 * `newAssignments` and history lookups). A key read back from an object is internalised (in V8), so
 * storing it skips hashing and looking it up in the string table each time: a third of a decision's cost.
 */
const asKey = (s: string): string => Object.keys({ [s]: 0 })[0] ?? s;

const validId = (id: unknown): id is string => typeof id === 'string' && id !== '' && id !== '__proto__';

/** Compiles one variation group, or returns undefined (with a reason) when it is malformed. */
const compileGroup = (
  c: Obj,
  g: unknown,
  reasons: string[],
  where: string,
  reads: FileReads,
): CompiledGroup | undefined => {
  if (!isJsonObject(g) || !validId(g.id) || typeof g.name !== 'string' || !Array.isArray(g.variations)) {
    reasons.push(`${where}: a variation group needs an id, a name and a variations array; it does not match`);
    return undefined;
  }
  const parsed: { v: Obj; type: string; value: Record<string, JsonValue>; allocation: number }[] = [];
  let total = 0;
  for (const [i, v] of g.variations.entries()) {
    const at = `${where}.variations[${i}]`;
    const m = isJsonObject(v) ? v.modifications : undefined;
    const value = isJsonObject(m) ? copyJson(m.value) : undefined;
    const allocation = isJsonObject(v) ? (v.allocation ?? 0) : 0;
    if (
      !isJsonObject(v) ||
      !validId(v.id) ||
      typeof v.name !== 'string' ||
      !isJsonObject(m) ||
      typeof m.type !== 'string'
    ) {
      reasons.push(
        `${at}: a variation needs an id, a name and modifications {type, value}; the group does not match`,
      );
      return undefined;
    }
    if (!isJsonObject(value)) {
      reasons.push(`${at}: modifications.value is not a JSON object; the group does not match`);
      return undefined;
    }
    if (v.reference !== undefined && typeof v.reference !== 'boolean') {
      reasons.push(`${at}: reference is not a boolean; the group does not match`);
      return undefined;
    }
    if (
      typeof allocation !== 'number' ||
      !Number.isInteger(allocation) ||
      allocation < 0 ||
      allocation > 100
    ) {
      reasons.push(`${at}: allocation is not an integer 0-100; the group does not match`);
      return undefined;
    }
    total += allocation;
    parsed.push({ v, type: m.type, value, allocation });
  }
  if (total > 100) {
    reasons.push(`${where}: allocations sum to ${total} (over 100); the group does not match`);
    return undefined;
  }
  const allKeys = new Set(parsed.flatMap((p) => Object.keys(p.value)));
  const indexById = new Map<string, number>();
  const variations = parsed.map(({ v, type, value }, index): CompiledVariation => {
    const id = v.id as string;
    if (!indexById.has(id)) indexById.set(id, index);
    const plain: Record<string, JsonValue> = {};
    const exposed: Record<string, JsonValue> = { ...value };
    for (const [key, item] of Object.entries(value)) if (item !== null) plain[key] = item;
    for (const key of allKeys) if (!Object.hasOwn(exposed, key)) exposed[key] = null;
    return {
      id,
      plain: decisionCampaign(c, g, v, type, plain),
      exposed: decisionCampaign(c, g, v, type, exposed),
    };
  });
  return {
    id: asKey(g.id),
    hashPrefix: murmur3Prefix(g.id),
    table: allocationTable(parsed.map((p) => p.allocation)),
    indexById,
    match: compileTargeting(g.targeting, reasons, `${where}.targeting`, reads),
    variations,
  };
};

/** The flat bucket ranges of a campaign, null for all traffic, undefined (with a reason) when malformed. */
const compileRanges = (ranges: unknown, reasons: string[], where: string): number[] | null | undefined => {
  if (ranges === undefined) return null;
  const flat: number[] = [];
  if (Array.isArray(ranges)) {
    for (const range of ranges) {
      const r = isJsonObject(range) ? range.r : undefined;
      if (!Array.isArray(r) || r.length !== 2 || typeof r[0] !== 'number' || typeof r[1] !== 'number') break;
      flat.push(r[0], r[1]);
    }
    // One range over all traffic is the default: null lets evaluation skip the visitor's range hash.
    if (flat.length === ranges.length * 2)
      return flat.length === 2 && flat[0] === 0 && flat[1] === 100 ? null : flat;
  }
  reasons.push(`${where}.bucketRanges: not a list of {r: [from, to]}; the campaign does not match`);
  return undefined;
};

/** Compiles one campaign, or returns undefined (with a reason) when it is malformed. */
const compileCampaign = (
  c: unknown,
  reasons: string[],
  where: string,
  reads: FileReads,
): CompiledCampaign | undefined => {
  if (
    !isJsonObject(c) ||
    !validId(c.id) ||
    typeof c.name !== 'string' ||
    typeof c.type !== 'string' ||
    !Array.isArray(c.variationGroups) ||
    (c.slug !== undefined && c.slug !== null && typeof c.slug !== 'string')
  ) {
    reasons.push(
      `${where}: a campaign needs an id, a name, a type and a variationGroups array; it does not match`,
    );
    return undefined;
  }
  const ranges = compileRanges(c.bucketRanges, reasons, where);
  if (ranges === undefined) return undefined;
  const groups: CompiledGroup[] = [];
  c.variationGroups.forEach((g: unknown, i) => {
    const group = compileGroup(c, g, reasons, `${where}.variationGroups[${i}]`, reads);
    if (group !== undefined) groups.push(group);
  });
  return { id: c.id, ab: c.type === 'ab', ranges, groups };
};

/** The account settings of a file: both false when absent; a malformed one is read as false, with a reason. */
const readSettings = (settings: unknown, reasons: string[]): Readonly<AccountSettings> => {
  if (settings === undefined) return Object.freeze({ enabledXPC: false, enabled1V1T: false });
  const s = isJsonObject(settings) ? settings : {};
  if (typeof s.enabledXPC !== 'boolean' || typeof s.enabled1V1T !== 'boolean') {
    reasons.push(
      'accountSettings: enabledXPC and enabled1V1T must be booleans; a missing or bad one is false',
    );
  }
  return Object.freeze({ enabledXPC: s.enabledXPC === true, enabled1V1T: s.enabled1V1T === true });
};

/**
 * A bucketing file checked and indexed for {@link evaluate}: build it once per file (`compileFile`) and
 * evaluate many visitors against it. Immutable; holds nothing of any visitor.
 */
export class CompiledFile {
  /** Whether the file is in panic (only `panic: true` is). */
  readonly panic: boolean;
  /** The account settings (§8.5, §8.6). */
  readonly accountSettings: Readonly<AccountSettings>;
  /** The campaigns that can match, in order. */
  readonly campaigns: readonly CompiledCampaign[];
  /** Why parts of the file were dropped: the same for every visitor. */
  readonly reasons: readonly string[];

  /** Compiles `file` (anything: a malformed file compiles to one that matches nothing, with reasons). */
  constructor(file: unknown) {
    const reasons: string[] = [];
    const f = isJsonObject(file) ? file : undefined;
    if (f === undefined) reasons.push('the bucketing file is not a JSON object; nothing matches');
    if (f !== undefined && f.panic !== undefined && typeof f.panic !== 'boolean') {
      reasons.push('panic is not a boolean; the file is read as not in panic');
    }
    this.panic = f?.panic === true;
    this.accountSettings = readSettings(f?.accountSettings, reasons);
    const campaigns: CompiledCampaign[] = [];
    const reads = new FileReads();
    if (f !== undefined && !this.panic) {
      if (!Array.isArray(f.campaigns)) reasons.push('campaigns is not an array; nothing matches');
      else
        f.campaigns.forEach((c: unknown, i) => {
          const campaign = compileCampaign(c, reasons, `campaigns[${i}]`, reads);
          if (campaign !== undefined) campaigns.push(campaign);
        });
    }
    // Built here, once per file, so that no decision pays for an automaton.
    reads.seal();
    this.campaigns = Object.freeze(campaigns);
    this.reasons = Object.freeze(reasons);
    Object.freeze(this);
  }
}

/** Checks and indexes a bucketing file once, for many {@link evaluate} calls. Never throws. */
export const compileFile = (file: unknown): CompiledFile => new CompiledFile(file);
