// The SDK's messages for a user's mistakes, in Chromium (the suite is shared with Node: test/core/shared/sdk-messages.suite.ts).
import { browserHarness } from './shared/browser-harness.js';
import { defineSdkMessagesSuite } from './shared/sdk-messages.suite.js';

defineSdkMessagesSuite(browserHarness);
