// OFREP's success bodies (PROTOCOL.md §18) from a decision: one evaluation per flag the visitor gets, built
// by the same rule as the SDK's flags (§9.1, §9.2: the last campaign wins, a null never masks a value).
// A flag whose assigned variation does not set it (null, §9.2) is answered without `value`: OFREP's
// "code default" form (open-feature/protocol ADR-0006), so the application uses its default while the
// variant and metadata still say which variation the visitor is in.
import { createHash } from 'node:crypto';
import { buildFlags, type ResolvedFlag } from 'feature-ts/engine';
import type { Decision, JsonValue } from 'feature-ts/protocol';

/** The OpenFeature reasons an OFREP evaluation gives. */
export type OfrepReason = 'SPLIT' | 'TARGETING_MATCH' | 'DISABLED';

/** Where a flag's value comes from: the campaign, variation group and variation. */
export interface OfrepFlagMetadata {
  campaignId: string;
  campaignType: string;
  /** "" when the campaign has none. */
  slug: string;
  variationGroupId: string;
  variationId: string;
  isReference: boolean;
}

/** One flag's evaluation (OFREP's `evaluationSuccess`). */
export interface OfrepEvaluation {
  key: string;
  /** Absent when the variation does not set the flag, and in panic: the client uses its default. */
  value?: JsonValue;
  /** The variation's name; absent in panic. */
  variant?: string;
  reason: OfrepReason;
  /** Empty in panic. */
  metadata: OfrepFlagMetadata | Record<string, never>;
}

/** The bulk answer (OFREP's `bulkEvaluationSuccess`, with §17's stream). */
export interface OfrepBulkAnswer {
  flags: OfrepEvaluation[];
  metadata: Record<string, never>;
  eventStreams: Array<{ type: 'sse'; url: string; inactivityDelaySec: number }>;
}

/** Seconds of inactivity (a hidden tab) after which an OFREP web provider closes the stream (§18). */
export const STREAM_INACTIVITY_DELAY_SEC = 120;

/** SPLIT when allocation chose the variation (an A/B test), TARGETING_MATCH for the other campaign types. */
const reasonOf = (campaignType: string): OfrepReason => (campaignType === 'ab' ? 'SPLIT' : 'TARGETING_MATCH');

/** The evaluation of one resolved flag. */
const evaluationOf = (flag: ResolvedFlag): OfrepEvaluation => {
  const m = flag.metadata;
  return {
    key: flag.key,
    ...(flag.value === null ? {} : { value: flag.value }),
    variant: m.variationName,
    reason: reasonOf(m.campaignType),
    metadata: {
      campaignId: m.campaignId,
      campaignType: m.campaignType,
      slug: m.slug,
      variationGroupId: m.variationGroupId,
      variationId: m.variationId,
      isReference: m.isReference,
    },
  };
};

/** The evaluation of a flag in panic: disabled, no value, no variant. */
const disabled = (key: string): OfrepEvaluation => ({ key, reason: 'DISABLED', metadata: {} });

/** Every flag of `decision` (exposeAllKeys, §9.2), by key, in the decision's order. */
export const ofrepEvaluations = (decision: Decision): Map<string, OfrepEvaluation> => {
  const evaluations = new Map<string, OfrepEvaluation>();
  for (const [key, flag] of buildFlags(decision.campaigns)) evaluations.set(key, evaluationOf(flag));
  return evaluations;
};

/**
 * The evaluation of flag `key`, or undefined when no campaign gives it to this visitor. In panic every key
 * the environment's campaigns set (`panicKeys`) is disabled: the environment serves defaults only (§3).
 */
export const ofrepEvaluation = (
  decision: Decision,
  key: string,
  panicKeys: readonly string[],
): OfrepEvaluation | undefined => {
  if (decision.panic === true) return panicKeys.includes(key) ? disabled(key) : undefined;
  return ofrepEvaluations(decision).get(key);
};

/**
 * The bulk answer: every flag the visitor gets; in panic, every key the environment's campaigns set
 * (`panicKeys`), disabled, so that providers answer DISABLED rather than FLAG_NOT_FOUND.
 */
export const ofrepBulkAnswer = (
  decision: Decision,
  panicKeys: readonly string[],
  streamUrl: string,
): OfrepBulkAnswer => ({
  flags: decision.panic === true ? panicKeys.map(disabled) : [...ofrepEvaluations(decision).values()],
  metadata: {},
  eventStreams: [{ type: 'sse', url: streamUrl, inactivityDelaySec: STREAM_INACTIVITY_DELAY_SEC }],
});

/** A strong ETag of an answer's bytes (the bucketing file's form). */
export const etagOf = (bytes: string): string =>
  `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;
