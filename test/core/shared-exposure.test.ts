// Exposure rules and the OnVisitorExposed callback, under node:test (the suite is shared with Chromium: test/core/shared/exposure.suite.ts).
import { nodeHarness } from './shared/node-harness.js';
import { defineExposureSuite } from './shared/exposure.suite.js';

defineExposureSuite(nodeHarness);
