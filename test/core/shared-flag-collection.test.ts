// FlagCollection operations, under node:test (the suite is shared with Chromium: test/core/shared/flag-collection.suite.ts).
import { nodeHarness } from './shared/node-harness.js';
import { defineFlagCollectionSuite } from './shared/flag-collection.suite.js';

defineFlagCollectionSuite(nodeHarness);
