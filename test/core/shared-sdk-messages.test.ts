// The SDK's messages for a user's mistakes, under node:test (the suite is shared with Chromium: test/core/shared/sdk-messages.suite.ts).
import { nodeHarness } from './shared/node-harness.js';
import { defineSdkMessagesSuite } from './shared/sdk-messages.suite.js';

defineSdkMessagesSuite(nodeHarness);
