// Live updates (PROTOCOL.md §17), shared by Node (the stream through node:http) and Chromium (through fetch and
// a body reader, cross-origin: the double runs on another port, so CORS and the Last-Event-ID preflight are
// on the path). The stream is the double's, driven by the test.
import { until } from '../../support/until.js';
import { campaign, decision } from './decisions.js';
import type { CoreHarness } from './harness.js';
import { decisionBodies, withSession } from './session.js';

const colour = (value: string) => ({
  '*': decision('*', [campaign('c1', 'vg1', value, { btnColor: value })]),
});

/** Defines the live-update suite on a runtime's harness. */
export const defineLiveSuite = (h: CoreHarness): void => {
  const { describe, it, assert, sdk } = h;
  const live = (b: InstanceType<typeof sdk.ConfigBuilder>) => b.withLiveUpdates(true);

  describe('live updates (PROTOCOL.md §17)', () => {
    it('decision-API mode: a change re-fetches the visitors who fetched, and only them', () =>
      withSession(h, { decisions: colour('blue'), configure: live }, async ({ instance, double, logs }) => {
        await until(async () => (await double.streams.open()) === 1, { what: 'the stream to open' });
        const fetched = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        instance.newVisitor({ visitorId: 'v2', hasConsented: true }).build();
        await fetched.fetchFlags();
        await double.setDecisions(colour('green'));
        await double.streams.push(2);
        await until(() => fetched.getFlag('btnColor').value<string>('none') === 'green', {
          what: 'the new colour',
        });
        assert.equal(fetched.flagStatus, sdk.FlagStatus.FETCHED);
        assert.deepEqual(
          (await decisionBodies(double)).map((b) => b.visitorId),
          ['v1', 'v1'],
        );
        assert.ok(logs.some((l) => /live updates: change 2 received/.test(l.message)));
      }));

    it('a reconnect sends the last event id and re-fetches (a change may have been missed)', () =>
      withSession(h, { configure: live }, async ({ instance, double }) => {
        await until(async () => (await double.streams.open()) === 1, { what: 'the stream to open' });
        const visitor = instance.newVisitor({ visitorId: 'v1', hasConsented: true }).build();
        await visitor.fetchFlags();
        await double.streams.push(9);
        await until(async () => (await double.requests('decision')).length === 2, { what: 'the re-fetch' });
        await double.streams.end();
        // The first reconnect waits about a second (the backoff's first step).
        await until(async () => (await double.requests('decision')).length === 3, {
          what: 'the re-fetch after the reconnect',
        });
        const streams = await double.requests('stream');
        assert.equal(streams.length, 2);
        assert.equal(streams[1]?.headers['last-event-id'], '9');
      }));

    it('bucketing mode: a change downloads the bucketing file at once', () =>
      withSession(
        h,
        {
          bucketing: { panic: false, campaigns: [] },
          configure: (b) => live(b.withMode(sdk.Mode.BUCKETING).withBucketingPollingIntervals(3600)),
        },
        async ({ double }) => {
          await until(async () => (await double.streams.open()) === 1, { what: 'the stream to open' });
          const before = (await double.requests('bucketing')).length;
          await double.streams.push(4);
          await until(async () => (await double.requests('bucketing')).length === before + 1, {
            what: 'the download',
          });
        },
      ));

    it('close() ends the stream', () =>
      withSession(h, { configure: live }, async ({ instance, double }) => {
        await until(async () => (await double.streams.open()) === 1, { what: 'the stream to open' });
        await instance.close();
        await until(async () => (await double.streams.open()) === 0, { what: 'the stream to end' });
      }));
  });
};
