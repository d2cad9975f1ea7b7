// Repeats of the creation fs_consent event and the SEGMENT hit, under node:test (the suite is shared with
// Chromium: test/core/shared/repeats.suite.ts).
import { nodeHarness } from './shared/node-harness.js';
import { defineRepeatsSuite } from './shared/repeats.suite.js';

defineRepeatsSuite(nodeHarness);
