// Visitor flagStatus and fetchReasons, in Chromium (the suite is shared with Node: test/core/shared/visitor-status.suite.ts).
import { browserHarness } from './shared/browser-harness.js';
import { defineVisitorStatusSuite } from './shared/visitor-status.suite.js';

defineVisitorStatusSuite(browserHarness);
