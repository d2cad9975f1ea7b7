// Registers the three tags: `/sdk/elements.js`, the one script a page needs. The provider first, so the flags
// and hits of a page upgrade with their provider already answering: unlike the per-element modules, which may
// load in any order, this one needs no ContextRoot to replay early requests (1 KB it does not carry).
import { FeatureFlag } from './feature-flag.js';
import { FeatureHit } from './feature-hit.js';
import { FeatureProvider } from './feature-provider.js';
import './tag-names.js';

for (const [name, element] of [
  ['feature-provider', FeatureProvider],
  ['feature-flag', FeatureFlag],
  ['feature-hit', FeatureHit],
] as const)
  if (customElements.get(name) === undefined) customElements.define(name, element);

export * from './index.js';
