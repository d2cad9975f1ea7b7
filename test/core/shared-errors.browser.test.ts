// SPEC.md's Errors list and start validation, in Chromium (the suite is shared with Node: test/core/shared/errors.suite.ts).
import { browserHarness } from './shared/browser-harness.js';
import { defineErrorsSuite } from './shared/errors.suite.js';

defineErrorsSuite(browserHarness);
