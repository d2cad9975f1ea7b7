// Flag operations and the §9.3 type table, under node:test (the suite is shared with Chromium: test/core/shared/flag.suite.ts).
import { nodeHarness } from './shared/node-harness.js';
import { defineFlagSuite } from './shared/flag.suite.js';

defineFlagSuite(nodeHarness);
