// Live updates, under node:test (the suite is shared with Chromium: test/core/shared/live.suite.ts).
import { defineLiveSuite } from './shared/live.suite.js';
import { nodeHarness } from './shared/node-harness.js';

defineLiveSuite(nodeHarness);
