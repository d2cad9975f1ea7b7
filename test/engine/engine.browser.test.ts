// Runs the engine suite in Chromium (mocha + chai), with the cases fetched from the test server.
import { assert } from '@open-wc/testing';
import type { EngineCases } from './engine-cases.js';
import { defineEngineSuite } from './engine-suite.js';

const response = await fetch(new URL('../fixtures/engine-cases.json', import.meta.url));
const cases = (await response.json()) as EngineCases;

defineEngineSuite(
  {
    describe: (name, fn) => void describe(name, fn),
    it: (name, fn) => void it(name, fn),
    assert: {
      equal: (actual, expected, message) => assert.strictEqual(actual, expected, message),
      deepEqual: (actual, expected, message) => assert.deepEqual(actual, expected, message),
      ok: (value, message) => assert.isOk(value, message),
    },
  },
  cases,
);
