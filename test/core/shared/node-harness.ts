// The shared core suites under node:test: node:assert/strict, the Node entry of the SDK and a protocol double
// started in this process.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import * as sdk from '../../../src/core/node.js';
import { decisionTable, startProtocolDouble } from '../../support/protocol-double.js';
import type { CoreHarness, DoubleHandle, DoubleOptions } from './harness.js';

const startDouble = async (options: DoubleOptions = {}): Promise<DoubleHandle> => {
  const { decisions, ...rest } = options;
  const double = await startProtocolDouble({
    ...rest,
    ...(decisions ? { decide: decisionTable(decisions) } : {}),
  });
  let stopped: Promise<void> | undefined;
  return {
    url: double.url,
    envId: double.script.envId,
    apiKey: double.script.apiKey,
    // Copies, as the browser gets them over the wire: a test never sees later requests appear in its array.
    requests: (kind) => Promise.resolve(structuredClone(double.requestsTo(kind))),
    setDecisions: (table) => {
      double.script.decide = decisionTable(table);
      return Promise.resolve();
    },
    queue: (kind, answers) => {
      double.script.queued[kind] = [...(double.script.queued[kind] ?? []), ...answers];
      return Promise.resolve();
    },
    streams: {
      open: () => Promise.resolve(double.streams.open()),
      opened: () => Promise.resolve(double.streams.opened()),
      push: (revision, etag) => Promise.resolve(double.streams.push(revision, etag)),
      end: () => Promise.resolve(double.streams.end()),
    },
    stop: () => (stopped ??= double.close()),
  };
};

/** node:test + node:assert/strict + src/core/node.ts. */
export const nodeHarness: CoreHarness = {
  runtime: 'node',
  describe: (name, fn) => void describe(name, fn),
  it: (name, fn) => void it(name, fn),
  assert: {
    equal: assert.strictEqual,
    notEqual: assert.notStrictEqual,
    deepEqual: assert.deepStrictEqual,
    ok: assert.ok,
    match: assert.match,
  },
  startDouble,
  sdk,
  sdkVersion: (
    JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version,
};
