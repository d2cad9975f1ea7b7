// Registers <feature-hit> (the class module itself has no side effects).
import { attachContextRoot } from './context-root.js';
import { FeatureHit } from './feature-hit.js';

declare global {
  interface HTMLElementTagNameMap {
    'feature-hit': FeatureHit;
  }
}

attachContextRoot();
if (customElements.get('feature-hit') === undefined) customElements.define('feature-hit', FeatureHit);
