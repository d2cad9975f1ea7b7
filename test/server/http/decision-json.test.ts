// The decision API's answer text (http/decision-json.ts) is byte for byte JSON.stringify of the decision.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { compileFile, evaluate } from '../../../src/engine/index.js';
import type { BucketingFile, Decision } from '../../../src/protocol/index.js';
import { decisionJson } from '../../../server/src/http/decision-json.js';

const file = JSON.parse(
  readFileSync(new URL('../../../bench/fixtures/engine-50x2x3.json', import.meta.url), 'utf8'),
) as BucketingFile;

void describe('decisionJson', () => {
  void it('equals JSON.stringify for engine decisions, with and without exposeAllKeys and extras', () => {
    const compiled = compileFile(file);
    for (let i = 0; i < 200; i++) {
      const context = {
        plan: ['free', 'gold', 'premium'][i % 3] ?? 'free',
        age: 18 + (i % 50),
        vip: i % 7 === 0,
      };
      for (const [exposeAllKeys, extras] of [
        [false, false],
        [true, true],
      ] as const) {
        const { decision } = evaluate(
          compiled,
          { id: `v-${i}\u2028"é`, context, assignments: {} },
          { exposeAllKeys, extras },
        );
        // Twice: the second answer comes from the cached campaign fragments.
        assert.equal(decisionJson(decision), JSON.stringify(decision));
        assert.equal(decisionJson(decision), JSON.stringify(decision));
      }
    }
  });

  void it('equals JSON.stringify for panic, empty, unfrozen and oddly ordered decisions', () => {
    const campaign = {
      id: 'c',
      name: 'n',
      slug: null,
      type: 'ab',
      variationGroupId: 'g',
      variationGroupName: 'gn',
      variation: { id: 'v', name: 'vn', reference: false, modifications: { type: 'FLAG', value: { a: 1 } } },
    };
    const decisions: Decision[] = [
      { visitorId: 'x', campaigns: [], panic: true },
      { visitorId: '', campaigns: [] },
      { visitorId: 'x', campaigns: [campaign, campaign] },
      {
        campaigns: [campaign],
        visitorId: 'y',
        extras: { accountSettings: { enabledXPC: true, enabled1V1T: false } },
      },
    ];
    for (const decision of decisions) assert.equal(decisionJson(decision), JSON.stringify(decision));
    // An unfrozen campaign is not cached: a change shows in the next answer.
    campaign.name = 'changed';
    const decision = decisions[2] as Decision;
    assert.equal(decisionJson(decision), JSON.stringify(decision));
  });
});
