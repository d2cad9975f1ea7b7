// Visitor context rules and predefined keys, in Chromium (the suite is shared with Node: test/core/shared/context.suite.ts).
import { browserHarness } from './shared/browser-harness.js';
import { defineContextSuite } from './shared/context.suite.js';

defineContextSuite(browserHarness);
