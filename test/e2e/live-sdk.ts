// A Node SDK in bucketing mode with live updates (PROTOCOL.md §17), for tests against the real server: one
// visitor who fetched once, whose `btnText` flag is then read as it changes by itself, and every log line kept.
import {
  ConfigBuilder,
  FeatureInstance,
  Level,
  MemoryHitCache,
  MemoryVisitorCache,
  Mode,
} from '../../src/core/node.js';
import { nodePlatform } from '../../src/core/platform/node.js';
import type { BucketingCampaign } from '../../src/protocol/index.js';
import { recordingLogs } from '../core/support.js';

/** What the toggle's flag shows while it is active. */
export const LIVE_TOGGLE_TEXT = 'Buy now';

/** A toggle for everyone: active, `btnText` is "Buy now"; paused, the flag falls back to its default. */
export const LIVE_TOGGLE: BucketingCampaign = {
  id: 'c-live',
  name: 'Live banner',
  type: 'toggle',
  variationGroups: [
    {
      id: 'vg-live',
      name: 'Everyone',
      targeting: {
        targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'fs_all_users', value: '' }] }],
      },
      variations: [
        {
          id: 'v-live',
          name: 'On',
          reference: true,
          allocation: 100,
          modifications: { type: 'FLAG', value: { btnText: LIVE_TOGGLE_TEXT } },
        },
      ],
    },
  ],
};

/** A started SDK and its one visitor. */
export interface LiveSdk {
  instance: FeatureInstance;
  /** The visitor's `btnText` now ("none" when the campaign is left out), read without exposure. */
  text(): string;
  /** Whether a log line matches `pattern`. */
  said(pattern: RegExp): boolean;
  /** How many log lines match `pattern`. */
  count(pattern: RegExp): number;
  /** Every log message so far, one a line. */
  messages(): string;
}

/** Starts the SDK on `serverUrl`, polling every `pollingSeconds`, and fetches its visitor's flags once. */
export const startLiveSdk = async (
  serverUrl: string,
  env: { envId: string; apiKey: string },
  pollingSeconds: number,
): Promise<LiveSdk> => {
  const logs = recordingLogs();
  const instance = new FeatureInstance(nodePlatform);
  await instance.start(
    env.envId,
    env.apiKey,
    new ConfigBuilder()
      .withMode(Mode.BUCKETING)
      .withServerUrl(serverUrl)
      .withLiveUpdates(true)
      .withBucketingPollingIntervals(pollingSeconds)
      .withLogManager(logs.manager)
      .withLogLevel(Level.ALL)
      .withDisableDeveloperUsageTracking(true)
      .withCacheVisitorManager(new MemoryVisitorCache())
      .withCacheHitManager(new MemoryHitCache())
      .build(),
  );
  const visitor = instance.newVisitor({ visitorId: 'live-visitor', hasConsented: true }).build();
  await visitor.fetchFlags();
  const count = (pattern: RegExp): number => logs.lines.filter((line) => pattern.test(line.message)).length;
  return {
    instance,
    text: () => visitor.getFlag('btnText').value('none', { visitorExposed: false }),
    said: (pattern) => count(pattern) > 0,
    count,
    messages: () => logs.lines.map((line) => line.message).join('\n'),
  };
};
