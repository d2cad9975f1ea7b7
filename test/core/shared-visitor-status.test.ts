// Visitor flagStatus and fetchReasons, under node:test (the suite is shared with Chromium: test/core/shared/visitor-status.suite.ts).
import { nodeHarness } from './shared/node-harness.js';
import { defineVisitorStatusSuite } from './shared/visitor-status.suite.js';

defineVisitorStatusSuite(nodeHarness);
