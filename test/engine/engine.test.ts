// Runs the engine suite under node:test, with the cases read from disk.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { EngineCases } from './engine-cases.js';
import { defineEngineSuite } from './engine-suite.js';

const cases = JSON.parse(
  readFileSync(new URL('../fixtures/engine-cases.json', import.meta.url), 'utf8'),
) as EngineCases;

defineEngineSuite(
  {
    describe: (name, fn) => void describe(name, fn),
    it: (name, fn) => void it(name, fn),
    assert: { equal: assert.strictEqual, deepEqual: assert.deepStrictEqual, ok: assert.ok },
  },
  cases,
);
