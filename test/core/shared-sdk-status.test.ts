// The Feature facade and SDK status transitions, under node:test (the suite is shared with Chromium: test/core/shared/sdk-status.suite.ts).
import { nodeHarness } from './shared/node-harness.js';
import { defineSdkStatusSuite } from './shared/sdk-status.suite.js';

defineSdkStatusSuite(nodeHarness);
