// The tags' types for `document.createElement` and `querySelector`, wherever they are registered from.
import type { FeatureFlag } from './feature-flag.js';
import type { FeatureHit } from './feature-hit.js';
import type { FeatureProvider } from './feature-provider.js';

declare global {
  interface HTMLElementTagNameMap {
    'feature-provider': FeatureProvider;
    'feature-flag': FeatureFlag;
    'feature-hit': FeatureHit;
  }
}
