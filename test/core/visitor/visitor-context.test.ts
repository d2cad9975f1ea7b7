// The Node platform's predefined keys (PROTOCOL.md §16.5). The context rules and FeatureContext run in Node and
// Chromium from the shared suite test/core/shared/context.suite.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nodeHarness } from '../shared/node-harness.js';

void describe('predefined context keys (FeatureContext)', () => {
  void test('the Node platform sets the auto keys of PROTOCOL.md §16.5', async () => {
    const { nodePlatform } = await import('../../../src/core/platform/node.js');
    const os = await import('node:os');
    // This file runs in its own process: the first gathering is the first start (platform-node.test.ts checks
    // it); the keys below are those of any later start.
    await nodePlatform.deviceContext();
    const device = await nodePlatform.deviceContext();
    const names: Record<string, string> = { Linux: 'Linux', Darwin: 'macOS', Windows_NT: 'Windows' };
    assert.equal(device.sdk_firstTimeInit, false, 'not the first start in this process');
    assert.equal(device.sdk_deviceLanguage, Intl.DateTimeFormat().resolvedOptions().locale);
    assert.equal(device.sdk_deviceType, 'server');
    assert.equal(device.sdk_osName, names[os.type()] ?? os.type());
    assert.equal(device.sdk_osVersionCode, os.release());
    assert.equal(device.sdk_fsVersion, nodeHarness.sdkVersion);
  });
});
