// Consent and sendHit, under node:test (the suite is shared with Chromium: test/core/shared/consent.suite.ts).
import { nodeHarness } from './shared/node-harness.js';
import { defineConsentSuite } from './shared/consent.suite.js';

defineConsentSuite(nodeHarness);
