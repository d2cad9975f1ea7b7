// The visitor cache, identity and the VisitorBuilder, in Chromium (the suite is shared with Node: test/core/shared/visitor-cache.suite.ts).
import { browserHarness } from './shared/browser-harness.js';
import { defineVisitorCacheSuite } from './shared/visitor-cache.suite.js';

defineVisitorCacheSuite(browserHarness);
