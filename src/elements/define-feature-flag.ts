// Registers <feature-flag> alone (the class module itself has no side effects). Per-element modules may load
// in any order, so each attaches the ContextRoot that lets flags and hits find a provider upgraded after them.
import { attachContextRoot } from './context-root.js';
import { FeatureFlag } from './feature-flag.js';
import './tag-names.js';

attachContextRoot();
if (customElements.get('feature-flag') === undefined) customElements.define('feature-flag', FeatureFlag);
