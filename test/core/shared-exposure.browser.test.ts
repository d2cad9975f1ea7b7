// Exposure rules and the OnVisitorExposed callback, in Chromium (the suite is shared with Node: test/core/shared/exposure.suite.ts).
import { browserHarness } from './shared/browser-harness.js';
import { defineExposureSuite } from './shared/exposure.suite.js';

defineExposureSuite(browserHarness);
