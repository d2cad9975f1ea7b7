// The shape of test/fixtures/engine-cases.json: the shared vectors, PROTOCOL.md §15 and hand-worked cases.
import type { AssignmentHistory, Decision, JsonValue, VisitorContext } from '../../src/protocol/index.js';
import type { EngineVisitor, EvaluateOptions } from '../../src/engine/index.js';

/** One decision case: a visitor and what the engine must answer for it. */
export interface DecisionCase {
  name?: string;
  visitor: EngineVisitor;
  options?: EvaluateOptions;
  decision: Decision;
  newAssignments: AssignmentHistory;
  /** Vector cases: the flags of §9.1, by key. */
  flags?: Record<string, { value: JsonValue; campaignId: string; variationId: string }>;
  /** Hand-worked cases: whether the file is malformed somewhere (reasons expected). */
  reasons?: boolean;
}

/** A bucketing file (possibly malformed) and its cases. */
export interface DecisionFile {
  about?: string;
  file: unknown;
  cases: DecisionCase[];
}

/** Everything in engine-cases.json. */
export interface EngineCases {
  murmur3: { input: string; hash: number; bucket: number; source: string }[];
  allocation: {
    groupId: string;
    visitorId: string;
    bucket: number;
    allocations: (number | null)[];
    variation: number;
  }[];
  walks: { allocations: (number | null)[]; bucket: number; variation: number }[];
  bucketRanges: { ranges: [number, number][]; bucket: number; in: boolean }[];
  semver: {
    ordered: string[];
    equal: [string, string][];
    lower: [string, string][];
    parsed: [string, [string, string, string], string[]][];
    invalid: string[];
  };
  /** `[operator, key, value, context, match, visitorId?]`; the visitor id defaults to `visitor-1`. */
  targeting: [string, string, JsonValue, VisitorContext, boolean, string?][];
  decisions: DecisionFile[];
  own: DecisionFile[];
}
