// FlagCollection operations, in Chromium (the suite is shared with Node: test/core/shared/flag-collection.suite.ts).
import { browserHarness } from './shared/browser-harness.js';
import { defineFlagCollectionSuite } from './shared/flag-collection.suite.js';

defineFlagCollectionSuite(browserHarness);
