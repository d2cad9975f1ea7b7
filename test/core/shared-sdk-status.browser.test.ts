// The Feature facade and SDK status transitions, in Chromium (the suite is shared with Node: test/core/shared/sdk-status.suite.ts).
import { browserHarness } from './shared/browser-harness.js';
import { defineSdkStatusSuite } from './shared/sdk-status.suite.js';

defineSdkStatusSuite(browserHarness);
