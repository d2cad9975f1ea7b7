// Live updates, in Chromium (the suite is shared with Node: test/core/shared/live.suite.ts).
import { browserHarness } from './shared/browser-harness.js';
import { defineLiveSuite } from './shared/live.suite.js';

defineLiveSuite(browserHarness);
