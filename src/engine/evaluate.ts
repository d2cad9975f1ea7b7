// One decision (PROTOCOL.md §3, §8): the campaign walk over a compiled bucketing file, with sticky
// assignments, experience continuity (§8.5) and one visitor, one test (§8.6). Pure: the same file, visitor
// and options always give the same result, and nothing outside the result is written.
import {
  isJsonObject,
  type AccountSettings,
  type AssignmentHistory,
  type Decision,
  type DecisionCampaign,
  type VisitorContext,
} from '../protocol/index.js';
import { assignVariation, inBucketRanges, stickyVariationId } from './allocation.js';
import { CompiledFile, compileFile } from './compile.js';
import { murmur3 } from './murmur3.js';

/** The visitor a decision is made for. */
export interface EngineVisitor {
  /** The current id: the authenticated id after `authenticate`. */
  id: string;
  /** The anonymous id of an authenticated visitor (§8.5); null or absent otherwise. */
  anonymousId?: string | null;
  /** The targeting context. `fs_users` is always the current id, whatever this holds. */
  context: VisitorContext;
  /** The assignment history, already merged by the caller (authenticated id first, §8.5). */
  assignments: AssignmentHistory;
}

/** Options of a decision, as the decision API's query gives them (§3). */
export interface EvaluateOptions {
  /** Add the chosen group's other keys with null (§9.2). Default false. */
  exposeAllKeys?: boolean;
  /** Add `extras.accountSettings` to the decision. Default false. */
  extras?: boolean;
}

/** The result of {@link evaluate}. */
export interface Evaluation {
  /** The decision API's answer body exactly (§3). Its campaign objects are shared and frozen. */
  decision: Decision;
  /** The variation groups allocated now (not those from the history), to be stored (§8.4, §8.5). */
  newAssignments: AssignmentHistory;
  /** Why malformed parts of the file or the visitor did not match, for logs. Empty when all is well. */
  reasons: string[];
}

/** An `ab` campaign's outcome under 1V1T, held back until the campaign walk has ended. */
interface AbCandidate {
  readonly position: number;
  readonly campaign: DecisionCampaign;
  readonly groupId: string;
  readonly variationId: string;
  readonly sticky: boolean;
}

const isEmpty = (o: object): boolean => {
  for (const _ in o) return false;
  return true;
};

/**
 * Decides which variation of which campaign a visitor gets (§3, §6-§9). `file` is a {@link CompiledFile}
 * (fast: build it once with `compileFile`) or a bucketing file as parsed JSON, compiled on each call.
 * Never throws: a malformed file or visitor part does not match, and `reasons` says why.
 */
export const evaluate = (
  file: unknown,
  visitor: EngineVisitor,
  options: EvaluateOptions = {},
): Evaluation => {
  const compiled = file instanceof CompiledFile ? file : compileFile(file);
  const reasons = compiled.reasons.slice();
  const v: unknown = visitor;
  if (!isJsonObject(v) || typeof v.id !== 'string') {
    reasons.push('the visitor has no string id; nothing matches');
    return { decision: { visitorId: '', campaigns: [] }, newAssignments: {}, reasons };
  }
  const id = v.id;
  if (compiled.panic)
    return { decision: { visitorId: id, campaigns: [], panic: true }, newAssignments: {}, reasons };
  let context = visitor.context;
  if (!isJsonObject(context)) {
    reasons.push('the visitor context is not an object; it is read as empty');
    context = {};
  }
  let history = visitor.assignments;
  if (!isJsonObject(history)) {
    reasons.push('the visitor assignments are not an object; they are read as empty');
    history = {};
  }
  const settings = compiled.accountSettings;
  const anonymousId = visitor.anonymousId;
  // §8.5: with continuity, a new allocation (and the traffic check) uses the anonymous id, so the
  // variation seen before login is kept; targeting still sees the current id.
  const allocationId =
    settings.enabledXPC && typeof anonymousId === 'string' && anonymousId !== '' ? anonymousId : id;
  const oneTest = settings.enabled1V1T;
  const exposeAllKeys = options.exposeAllKeys === true;

  const campaigns: DecisionCampaign[] = [];
  const newAssignments: AssignmentHistory = {};
  // A first visit has no history: skip a lookup per campaign that could only miss.
  const hasHistory = !isEmpty(history);
  let ab: AbCandidate | undefined;
  let rangeBucket = -1;
  for (const campaign of compiled.campaigns) {
    if (campaign.ranges !== null) {
      if (rangeBucket < 0) rangeBucket = murmur3(allocationId) % 100;
      if (!inBucketRanges(campaign.ranges, rangeBucket)) continue;
    }
    let group;
    for (const g of campaign.groups) {
      if (g.match(context, id)) {
        group = g;
        break;
      }
    }
    if (group === undefined) continue;
    const stickyId = hasHistory ? stickyVariationId(history, group.id) : undefined;
    const variation = group.variations[assignVariation(group, stickyId, allocationId)];
    if (variation === undefined) continue;
    const decided = exposeAllKeys ? variation.exposed : variation.plain;
    if (oneTest && campaign.ab) {
      // §8.6: the first ab campaign kept from the history wins, else the first one allocated.
      if (ab === undefined || (stickyId !== undefined && !ab.sticky)) {
        ab = {
          position: campaigns.length,
          campaign: decided,
          groupId: group.id,
          variationId: variation.id,
          sticky: stickyId !== undefined,
        };
      }
      continue;
    }
    campaigns.push(decided);
    if (stickyId === undefined) newAssignments[group.id] = variation.id;
  }
  if (ab !== undefined) {
    campaigns.splice(ab.position, 0, ab.campaign);
    if (!ab.sticky) newAssignments[ab.groupId] = ab.variationId;
  }
  const decision: Decision = { visitorId: id, campaigns };
  if (options.extras === true) decision.extras = { accountSettings: extrasOf(settings) };
  return { decision, newAssignments, reasons };
};

/** A copy of the settings for `extras`, so that a caller editing the decision cannot reach the file's. */
const extrasOf = (settings: Readonly<AccountSettings>): AccountSettings => ({
  enabledXPC: settings.enabledXPC,
  enabled1V1T: settings.enabled1V1T,
});
