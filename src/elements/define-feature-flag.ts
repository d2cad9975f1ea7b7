// Registers <feature-flag> (the class module itself has no side effects).
import { attachContextRoot } from './context-root.js';
import { FeatureFlag } from './feature-flag.js';

declare global {
  interface HTMLElementTagNameMap {
    'feature-flag': FeatureFlag;
  }
}

attachContextRoot();
if (customElements.get('feature-flag') === undefined) customElements.define('feature-flag', FeatureFlag);
