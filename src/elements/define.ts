// Registers the three tags: `/sdk/elements.js`, the one script a page needs. The provider first, so flags and
// hits in the page upgrade with their provider already in place.
import './define-feature-provider.js';
import './define-feature-flag.js';
import './define-feature-hit.js';

export * from './index.js';
