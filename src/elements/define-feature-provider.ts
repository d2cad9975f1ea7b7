// Registers <feature-provider> (the class module itself has no side effects).
import { attachContextRoot } from './context-root.js';
import { FeatureProvider } from './feature-provider.js';

declare global {
  interface HTMLElementTagNameMap {
    'feature-provider': FeatureProvider;
  }
}

attachContextRoot();
if (customElements.get('feature-provider') === undefined)
  customElements.define('feature-provider', FeatureProvider);
