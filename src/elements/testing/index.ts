// `feature-ts/testing`: for a page's own browser tests. Importing it registers `<feature-provider>` as the test
// provider (flags forced, no SDK, nothing sent) and the real `<feature-flag>` and `<feature-hit>`. It must be
// imported before anything that registers the live provider (`feature-ts/elements/define`, `/sdk/elements.js`):
// a tag is registered once per page, and the first registration wins.
import '../define-feature-flag.js';
import '../define-feature-hit.js';
import { FeatureTestProvider } from './feature-test-provider.js';

const registered = customElements.get('feature-provider');
if (registered === undefined) customElements.define('feature-provider', FeatureTestProvider);
else if (registered !== FeatureTestProvider)
  throw new Error(
    'feature-ts/testing: <feature-provider> is already registered as the live provider. Import ' +
      "'feature-ts/testing' first in the test file, before the page's own modules and 'feature-ts/elements/define'.",
  );

export { FeatureTestProvider, type FeatureTestHitDetail } from './feature-test-provider.js';
export type { ForcedValues } from '../forced-flags.js';
export type { ExposureDetail, FeatureClient } from '../client-context.js';
