// SPEC.md's Errors list and start validation, under node:test (the suite is shared with Chromium: test/core/shared/errors.suite.ts).
import { nodeHarness } from './shared/node-harness.js';
import { defineErrorsSuite } from './shared/errors.suite.js';

defineErrorsSuite(nodeHarness);
