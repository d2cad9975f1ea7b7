// Repeats of the creation fs_consent event and the SEGMENT hit, in Chromium (the suite is shared with Node:
// test/core/shared/repeats.suite.ts).
import { browserHarness } from './shared/browser-harness.js';
import { defineRepeatsSuite } from './shared/repeats.suite.js';

defineRepeatsSuite(browserHarness);
