// Flag operations and the §9.3 type table, in Chromium (the suite is shared with Node: test/core/shared/flag.suite.ts).
import { browserHarness } from './shared/browser-harness.js';
import { defineFlagSuite } from './shared/flag.suite.js';

defineFlagSuite(browserHarness);
