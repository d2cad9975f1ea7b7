// The pure decision engine (DESIGN.md): MurmurHash3, targeting, allocation, flags and `evaluate`. No DOM,
// no Node, no clock, no I/O: malformed input gives reasons, never exceptions.
export { murmur3, murmur3Prefix, murmur3Resume, type Murmur3Prefix } from './murmur3.js';
export { parseSemVer, compareSemVer, semVerComparator, type SemVer } from './semver.js';
export { compileRule, compileTargeting, matchesRule, type TargetingPredicate } from './targeting.js';
export {
  allocationBucket,
  allocationTable,
  assignVariation,
  inBucketRanges,
  stickyVariationId,
  walkVariations,
  type AllocationGroup,
} from './allocation.js';
export { buildFlags, type ResolvedFlag } from './flags.js';
export {
  CompiledFile,
  compileFile,
  type CompiledCampaign,
  type CompiledGroup,
  type CompiledVariation,
} from './compile.js';
export { evaluate, type EngineVisitor, type EvaluateOptions, type Evaluation } from './evaluate.js';
