// The visitor cache, identity and the VisitorBuilder, under node:test (the suite is shared with Chromium: test/core/shared/visitor-cache.suite.ts).
import { nodeHarness } from './shared/node-harness.js';
import { defineVisitorCacheSuite } from './shared/visitor-cache.suite.js';

defineVisitorCacheSuite(nodeHarness);
