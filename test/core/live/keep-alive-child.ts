// A process that starts the SDK with live updates on the server at argv[2] and never closes it: it prints
// "stream open" once the stream is open, then has nothing left to do, and must exit on its own
// (live-updates.test.ts: an open stream does not keep a Node process alive).
import { ConfigBuilder, Feature } from '../../../src/core/node.js';

// The SDK's own handles are unref'd: until the stream is open, this timer is what keeps the process running
// (an application's own work would), then nothing does.
const busy = setInterval(() => undefined, 1000);
const opened = new Promise<void>((resolve) => {
  void Feature.start(
    'env1',
    'key1',
    new ConfigBuilder()
      .withServerUrl(process.argv[2] ?? '')
      .withLiveUpdates(true)
      .withDisableDeveloperUsageTracking(true)
      .withLogManager({
        log: (_level, _name, message) => {
          if (/live updates: the stream .* is open/.test(message)) resolve();
        },
      })
      .build(),
  );
});
await opened;
clearInterval(busy);
process.stdout.write('stream open\n');
