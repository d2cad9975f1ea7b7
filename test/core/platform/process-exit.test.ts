// A Node process that ends without Feature.close() (issue 35): when its event loop runs dry with hits still
// pooled, the SDK closes itself at `beforeExit`, so they get their last attempt; when that fails, the lost-hits
// line is printed. Each run is a process of its own against the protocol double.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startProtocolDouble, type ProtocolDouble } from '../../support/protocol-double.js';

const run = promisify(execFile);
const entry = new URL('../../../src/core/node.ts', import.meta.url).href;

/** A script that sends one hit and ends without calling close(). */
const script = (serverUrl: string): string => `
import { ConfigBuilder, Event, EventCategory, Feature, Level } from ${JSON.stringify(entry)};
await Feature.start('env1', 'key1', new ConfigBuilder().withServerUrl(${JSON.stringify(serverUrl)})
  .withLogLevel(Level.WARNING).withDisableDeveloperUsageTracking(true).build());
const visitor = Feature.newVisitor({ visitorId: 'leaving', hasConsented: true }).build();
await visitor.sendHit(new Event({ category: EventCategory.Action_Tracking, action: 'left-without-close' }));
console.log('script done');
`;

const runScript = async (serverUrl: string): Promise<{ stdout: string; stderr: string }> =>
  run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(serverUrl)], {
    timeout: 60_000,
  });

const sentActions = (double: ProtocolDouble): string[] =>
  double
    .requestsTo('events')
    .flatMap((r) => ((r.body as { h?: Array<{ ea?: string }> }).h ?? []).map((h) => h.ea ?? ''));

void describe('a Node process that ends without close()', () => {
  let double: ProtocolDouble;
  before(async () => {
    double = await startProtocolDouble();
  });
  after(() => double.close());

  void it('sends its pooled hits at exit', async () => {
    const { stdout } = await runScript(double.url);
    assert.match(stdout, /script done/);
    assert.ok(sentActions(double).includes('left-without-close'), `sent: ${sentActions(double).join(', ')}`);
  });

  void it('says how many hits were lost when the last attempt fails', async () => {
    const requestsBefore = double.requestsTo('events').length;
    // Every send refused: the attempt at exit and the one more it makes. Two hits: the creation fs_consent event
    // and the script's own.
    double.script.queued.events = Array.from({ length: 4 }, () => ({ status: 503, body: { code: 'busy' } }));
    const { stdout, stderr } = await runScript(double.url);
    assert.match(stdout, /script done/);
    assert.match(
      `${stdout}${stderr}`,
      /2 hits not delivered by close\(\) are lost when this process ends: .*file-hit-cache/,
    );
    assert.equal(
      double.requestsTo('events').length - requestsBefore,
      2,
      'the attempt at exit and one more, both refused',
    );
    double.script.queued.events = [];
  });
});
