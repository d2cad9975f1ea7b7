// Consent and sendHit, in Chromium (the suite is shared with Node: test/core/shared/consent.suite.ts).
import { browserHarness } from './shared/browser-harness.js';
import { defineConsentSuite } from './shared/consent.suite.js';

defineConsentSuite(browserHarness);
