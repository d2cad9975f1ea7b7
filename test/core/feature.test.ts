// The static facade and the SDK status (SPEC.md "Static operations", States; PROTOCOL.md §16.1).
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { ConfigBuilder, Feature, FSSdkStatus, Instance, Level } from '../../src/core/node.js';
import { startProtocolDouble, type ProtocolDouble } from '../support/protocol-double.js';
import { campaign, decision, hitsReceived, recordingLogs, startSdk } from './support.js';

let double: ProtocolDouble | undefined;
afterEach(async () => {
  await Feature.close();
  await double?.close();
  double = undefined;
});

const config = (url: string, extra: (b: ConfigBuilder) => ConfigBuilder = (b) => b) =>
  extra(
    new ConfigBuilder().withServerUrl(url).withLogLevel(Level.NONE).withDisableDeveloperUsageTracking(true),
  ).build();

void describe('Feature facade', () => {
  void test('status: NOT_INITIALIZED → INITIALIZING → INITIALIZED, each change once to both callbacks, in order', async () => {
    double = await startProtocolDouble();
    const calls: string[] = [];
    assert.equal(Feature.getStatus(), FSSdkStatus.SDK_NOT_INITIALIZED);
    await Feature.start(
      'env1',
      'key1',
      config(double.url, (b) =>
        b
          .withStatusListener((s) => calls.push(`listener ${s}`))
          .onSdkStatusChanged((s) => calls.push(`changed ${s}`)),
      ),
    );
    assert.equal(Feature.getStatus(), FSSdkStatus.SDK_INITIALIZED);
    await Feature.close();
    assert.equal(Feature.getStatus(), FSSdkStatus.SDK_NOT_INITIALIZED);
    assert.deepEqual(calls, [
      'listener SDK_INITIALIZING',
      'changed SDK_INITIALIZING',
      'listener SDK_INITIALIZED',
      'changed SDK_INITIALIZED',
      'listener SDK_NOT_INITIALIZED',
      'changed SDK_NOT_INITIALIZED',
    ]);
  });

  void test('start called again closes the running instance first', async () => {
    double = await startProtocolDouble();
    const first: string[] = [];
    const second: string[] = [];
    await Feature.start(
      'env1',
      'key1',
      config(double.url, (b) => b.withStatusListener((s) => first.push(s))),
    );
    const visitor = Feature.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await Feature.start(
      'env1',
      'key1',
      config(double.url, (b) => b.withStatusListener((s) => second.push(s))),
    );
    assert.deepEqual(first, ['SDK_INITIALIZING', 'SDK_INITIALIZED', 'SDK_NOT_INITIALIZED']);
    assert.deepEqual(second, ['SDK_INITIALIZING', 'SDK_INITIALIZED']);
    // The first run's pooled fs_consent event was flushed by its close.
    assert.equal(hitsReceived(double).filter((h) => h.vid === 'v1').length, 1);
    assert.equal(Feature.getCurrentVisitor(), null, 'a closed run keeps no current visitor');
    assert.equal(visitor.visitorId, 'v1');
  });

  void test('the default mode is DECISION_API: fetchFlags makes one decision request', async () => {
    double = await startProtocolDouble();
    await Feature.start('env1', 'key1', config(double.url));
    const visitor = Feature.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    await visitor.fetchFlags();
    assert.equal(double.requestsTo('decision').length, 2);
    assert.equal(double.requestsTo('bucketing').length, 0);
  });

  void test('getCurrentVisitor is null until a visitor is set; SINGLE_INSTANCE saves it, NEW_INSTANCE does not', async () => {
    double = await startProtocolDouble();
    await Feature.start('env1', 'key1', config(double.url));
    assert.equal(Feature.getCurrentVisitor(), null);
    const other = Feature.newVisitor({
      visitorId: 'n1',
      hasConsented: true,
      instanceType: Instance.NEW_INSTANCE,
    }).build();
    assert.equal(Feature.getCurrentVisitor(), null);
    const single = Feature.newVisitor({ visitorId: 's1', hasConsented: true }).build();
    assert.equal(Feature.getCurrentVisitor(), single);
    const explicit = Feature.newVisitor({
      visitorId: 's2',
      hasConsented: true,
      instanceType: Instance.SINGLE_INSTANCE,
    }).build();
    assert.equal(Feature.getCurrentVisitor(), explicit);
    Feature.setCurrentVisitor(other);
    assert.equal(Feature.getCurrentVisitor(), other);
  });

  void test('newVisitor before start, or with a missing id or consent, throws with what to change', async () => {
    assert.throws(
      () => Feature.newVisitor({ visitorId: 'v1', hasConsented: true }),
      /await Feature.start\(envId, apiKey\) first/,
    );
    double = await startProtocolDouble();
    await Feature.start('env1', 'key1', config(double.url));
    assert.throws(
      () => Feature.newVisitor({ visitorId: '', hasConsented: true }),
      /visitorId must be a string of 1 to 256 characters/,
    );
    assert.throws(() => Feature.newVisitor({ visitorId: 'x'.repeat(257), hasConsented: true }), /1 to 256/);
    assert.throws(
      () => Feature.newVisitor({ visitorId: 'v', hasConsented: 'yes' as never }),
      /hasConsented must be true or false/,
    );
    assert.throws(
      () => Feature.newVisitor({ visitorId: 'v', hasConsented: true, instanceType: 'MANY' as Instance }),
      /instanceType must be Instance.SINGLE_INSTANCE or Instance.NEW_INSTANCE/,
    );
  });

  void test('setLoggerLevel changes what is written at run time', async () => {
    double = await startProtocolDouble();
    const logs = recordingLogs();
    await Feature.start(
      'env1',
      'key1',
      config(double.url, (b) => b.withLogManager(logs.manager).withLogLevel(Level.ALL)),
    );
    assert.equal(logs.lines.filter((l) => l.level === 'INFO').length, 1);
    Feature.setLoggerLevel(Level.ERROR);
    const visitor = Feature.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    visitor.getFlag('x').value(1);
    visitor.updateContext('bad', null as never);
    assert.deepEqual(
      logs.lines.slice(1).map((l) => l.level),
      ['ERROR'],
    );
    Feature.setLoggerLevel(Level.NONE);
    visitor.updateContext('bad', null as never);
    assert.equal(logs.lines.length, 2);
  });

  void test('close flushes pooled hits and returns to SDK_NOT_INITIALIZED', async () => {
    double = await startProtocolDouble();
    await Feature.start(
      'env1',
      'key1',
      config(double.url, (b) => b.withTrackingConfig({ batchIntervals: 3600, poolMaxSize: 100 })),
    );
    Feature.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await new Promise((r) => setImmediate(r));
    assert.equal(double.requestsTo('events').length, 0);
    await Feature.close();
    assert.equal(hitsReceived(double).length, 1);
    assert.equal(Feature.getStatus(), FSSdkStatus.SDK_NOT_INITIALIZED);
  });
});

void describe('SDK status and panic (PROTOCOL.md §16.1)', () => {
  void test('a panic answer gives SDK_PANIC; the next answer without panic gives SDK_INITIALIZED', async () => {
    let panic = true;
    const sdk = await startSdk({
      decide: (b) =>
        panic ? { visitorId: b.visitorId, campaigns: [], panic: true } : decision(b.visitorId, []),
    });
    const changes: string[] = [];
    sdk.instance.$status.listen((s) => changes.push(s));
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    assert.equal(sdk.instance.getStatus(), FSSdkStatus.SDK_PANIC);
    await visitor.fetchFlags();
    assert.equal(sdk.instance.getStatus(), FSSdkStatus.SDK_PANIC, 'no change, no call');
    panic = false;
    await visitor.fetchFlags();
    assert.equal(sdk.instance.getStatus(), FSSdkStatus.SDK_INITIALIZED);
    await sdk.close();
    assert.deepEqual(changes, ['SDK_PANIC', 'SDK_INITIALIZED', 'SDK_NOT_INITIALIZED']);
    assert.deepEqual(sdk.statuses, [
      'SDK_INITIALIZING',
      'SDK_INITIALIZED',
      'SDK_PANIC',
      'SDK_INITIALIZED',
      'SDK_NOT_INITIALIZED',
    ]);
  });

  void test('instances are isolated: each has its own status, visitors and current visitor', async () => {
    const a = await startSdk({
      decide: (b) => decision(b.visitorId, [campaign('c1', 'vg1', 'v1', { k: 'a' })]),
    });
    const b = await startSdk({
      decide: (body) => ({ visitorId: body.visitorId, campaigns: [], panic: true }),
    });
    const va = a.instance.newVisitor({ visitorId: 'x', hasConsented: true }).build();
    const vb = b.instance.newVisitor({ visitorId: 'x', hasConsented: true }).build();
    await Promise.all([va.fetchFlags(), vb.fetchFlags()]);
    assert.equal(a.instance.getStatus(), FSSdkStatus.SDK_INITIALIZED);
    assert.equal(b.instance.getStatus(), FSSdkStatus.SDK_PANIC);
    assert.equal(va.getFlag('k').value('d'), 'a');
    assert.equal(vb.getFlag('k').value('d'), 'd');
    assert.equal(a.instance.getCurrentVisitor(), va);
    assert.equal(b.instance.getCurrentVisitor(), vb);
    await a.close();
    await b.close();
  });
});
