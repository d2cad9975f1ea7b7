// Registers <feature-provider> alone (the class module itself has no side effects). Per-element modules may load
// in any order, so each attaches the ContextRoot that lets flags and hits find a provider upgraded after them.
import { attachContextRoot } from './context-root.js';
import { FeatureProvider } from './feature-provider.js';
import './tag-names.js';

attachContextRoot();
if (customElements.get('feature-provider') === undefined)
  customElements.define('feature-provider', FeatureProvider);
