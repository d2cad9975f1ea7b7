// Live updates end to end in Node (PROTOCOL.md §17, §16.2): an SDK started with `withLiveUpdates(true)`
// against the protocol double, whose stream the test drives. What a change does in each mode, who is re-fetched,
// and that close() ends the stream. Real timers: nothing here waits on a backoff.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { afterEach, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ConfigBuilder } from '../../../src/core/config.js';
import {
  FetchFlagsRequiredStatusReason as Reason,
  FlagStatus,
  FSSdkStatus,
  Mode,
} from '../../../src/core/status.js';
import type { VisitorFlagState } from '../../../src/core/visitor/visitor.js';
import { until } from '../../support/until.js';
import { vectorFile } from '../decision/bucketing-files.js';
import { campaign, decision, startSdk, type Sdk } from '../support.js';

const colour = (value: string) => ({
  '*': decision('*', [campaign('c1', 'vg1', value, { btnColor: value })]),
});

void describe('live updates (PROTOCOL.md §17)', () => {
  let sdk: Sdk | undefined;
  afterEach(async () => {
    await sdk?.close();
    sdk = undefined;
  });

  void it('decision-API mode: a change re-fetches at once every visitor who fetched (FETCHING, then FETCHED), not the others', async () => {
    sdk = await startSdk({ decide: () => colour('blue')['*'] }, (b) => b.withLiveUpdates(true));
    const { double, instance } = sdk;
    await until(() => double.streams.open() === 1, { what: 'the stream to open' });
    const fetched = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    const idle = instance.newVisitor({ visitorId: 'v2', hasConsented: true }).build();
    await fetched.fetchFlags();
    assert.equal(fetched.getFlag('btnColor').value('none'), 'blue');
    const states: VisitorFlagState[] = [];
    fetched.$flagStatus.listen((state) => states.push(state));
    double.script.decide = () => colour('green')['*'];
    double.streams.push(2);
    await until(() => fetched.getFlag('btnColor').value<string>('none') === 'green', {
      what: 'the new colour',
    });
    assert.deepEqual(states, [
      { status: FlagStatus.FETCHING, reason: Reason.NONE },
      { status: FlagStatus.FETCHED, reason: Reason.NONE },
    ]);
    const asked = double.requestsTo('decision').map((r) => (r.body as { visitorId: string }).visitorId);
    assert.deepEqual(asked, ['v1', 'v1']);
    assert.equal(idle.flagStatus, FlagStatus.FETCH_REQUIRED);
    assert.equal(idle.fetchReasons, Reason.FLAGS_NEVER_FETCHED);
    assert.ok(sdk.logs.lines.some((l) => /live updates: change 2 received/.test(l.message)));
  });

  void it('decision-API mode: after a reconnect the visitors who fetched are fetched again', async () => {
    sdk = await startSdk({}, (b) => b.withLiveUpdates(true));
    const { double, instance } = sdk;
    await until(() => double.streams.open() === 1, { what: 'the stream to open' });
    const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    double.streams.end();
    // The real backoff's first wait: about a second.
    await until(() => double.requestsTo('decision').length === 2, {
      what: 'the re-fetch after the reconnect',
      timeoutMs: 5000,
    });
    assert.equal(double.streams.opened(), 2);
  });

  void it('bucketing mode: a change downloads the file at once, and a new file re-evaluates the visitors', async () => {
    sdk = await startSdk({ bucketing: vectorFile() }, (b) =>
      b.withMode(Mode.BUCKETING).withBucketingPollingIntervals(3600).withLiveUpdates(true),
    );
    const { double, instance } = sdk;
    await until(() => double.streams.open() === 1, { what: 'the stream to open' });
    const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    assert.equal(visitor.flagStatus, FlagStatus.FETCHED);
    const downloads = double.requestsTo('bucketing').length;
    // An unchanged file: one conditional download, answered 304.
    double.streams.push(5);
    await until(() => double.requestsTo('bucketing').length === downloads + 1, { what: 'a download' });
    assert.equal(double.requestsTo('bucketing').at(-1)?.headers['if-none-match'], '"b1"');
    // A new file in panic: the visitor is re-evaluated against it.
    double.script.bucketing = vectorFile({ panic: true });
    double.script.bucketingEtag = '"b2"';
    double.streams.push(6, '"b2"');
    await until(() => visitor.flagStatus === FlagStatus.PANIC, { what: 'the visitor re-evaluated' });
    assert.equal(instance.getStatus(), FSSdkStatus.SDK_PANIC);
  });

  void it('off by default: no stream is opened', async () => {
    sdk = await startSdk();
    const visitor = sdk.instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
    await visitor.fetchFlags();
    assert.equal(sdk.double.requestsTo('stream').length, 0);
  });

  void it('close() ends the stream, even one still loading', async () => {
    sdk = await startSdk({}, (b) => b.withLiveUpdates(true));
    await until(() => sdk?.double.streams.open() === 1, { what: 'the stream to open' });
    await sdk.instance.close();
    await until(() => sdk?.double.streams.open() === 0, { what: 'the stream to end' });
    // Started and closed at once: whenever the chunk comes in, the stream ends with the SDK.
    const { double, instance } = sdk;
    await instance.start(
      double.script.envId,
      double.script.apiKey,
      new ConfigBuilder()
        .withServerUrl(double.url)
        .withLiveUpdates(true)
        .withDisableDeveloperUsageTracking(true)
        .build(),
    );
    await instance.close();
    await until(() => double.streams.open() === 0, { what: 'no stream left open' });
  });

  void it('an open stream does not keep a Node process alive', async () => {
    const { double } = (sdk = await startSdk());
    // A child that starts the SDK with live updates and never closes it: it must exit on its own.
    const child = promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', new URL('keep-alive-child.ts', import.meta.url).pathname, double.url],
      { timeout: 20_000 },
    );
    const { stdout } = await child;
    assert.equal(stdout.trim(), 'stream open');
    assert.equal(double.streams.opened(), 1);
  });
});
