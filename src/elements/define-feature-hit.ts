// Registers <feature-hit> alone (the class module itself has no side effects). Per-element modules may load
// in any order, so each attaches the ContextRoot that lets flags and hits find a provider upgraded after them.
import { attachContextRoot } from './context-root.js';
import { FeatureHit } from './feature-hit.js';
import './tag-names.js';

attachContextRoot();
if (customElements.get('feature-hit') === undefined) customElements.define('feature-hit', FeatureHit);
