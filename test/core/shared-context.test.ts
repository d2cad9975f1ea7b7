// Visitor context rules and predefined keys, under node:test (the suite is shared with Chromium: test/core/shared/context.suite.ts).
import { nodeHarness } from './shared/node-harness.js';
import { defineContextSuite } from './shared/context.suite.js';

defineContextSuite(nodeHarness);
