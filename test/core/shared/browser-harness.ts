// The shared core suites in Chromium: mocha + chai's assert, the browser entry of the SDK, and protocol
// doubles started in the test runner's Node process through the wtr server commands
// (test/support/wtr-commands.ts), so the SDK talks to a real server on 127.0.0.1.
import { assert } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import * as sdk from '../../../src/core/index.js';
import type { CoreHarness, DoubleHandle, DoubleOptions, RecordedRequest } from './harness.js';

const startDouble = async (options: DoubleOptions = {}): Promise<DoubleHandle> => {
  const { id, url } = await executeServerCommand<{ id: string; url: string }, object>('double-start', {
    script: options,
  });
  let stopped: Promise<void> | undefined;
  return {
    url,
    // The double's defaults (test/support/protocol-double.ts) when the test names none.
    envId: options.envId ?? 'env1',
    apiKey: options.apiKey ?? 'key1',
    requests: (kind) => executeServerCommand<RecordedRequest[], object>('double-requests', { id, kind }),
    setDecisions: async (decisions) => {
      await executeServerCommand('double-script', { id, script: { decisions } });
    },
    queue: async (kind, answers) => {
      await executeServerCommand('double-queue', { id, kind, answers });
    },
    streams: {
      open: () => executeServerCommand<number, object>('double-stream', { id, action: 'open' }),
      opened: () => executeServerCommand<number, object>('double-stream', { id, action: 'opened' }),
      push: async (revision, etag) => {
        await executeServerCommand('double-stream', { id, action: 'push', revision, etag });
      },
      end: async () => {
        await executeServerCommand('double-stream', { id, action: 'end' });
      },
    },
    stop: () => (stopped ??= executeServerCommand('double-stop', { id }).then(() => undefined)),
  };
};

const pkg = (await (await fetch(new URL('../../../package.json', import.meta.url))).json()) as {
  version: string;
};

/** mocha + chai + src/core/index.ts. */
export const browserHarness: CoreHarness = {
  runtime: 'browser',
  describe: (name, fn) => void describe(name, fn),
  it: (name, fn) => void it(name, fn),
  assert: {
    // node:assert's strictEqual is Object.is (NaN equals NaN); chai's is ===: align them.
    equal: (actual, expected, message) => {
      if (!Object.is(actual, expected)) assert.strictEqual(actual, expected, message);
    },
    notEqual: (actual, expected, message) => assert.notStrictEqual(actual, expected, message),
    deepEqual: (actual, expected, message) => assert.deepEqual(actual, expected, message),
    ok: (value, message) => assert.isOk(value, message),
    match: (actual, pattern, message) => assert.match(actual, pattern, message),
  },
  startDouble,
  sdk,
  sdkVersion: pkg.version,
};
