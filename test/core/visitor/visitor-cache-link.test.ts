// A returning visitor's kept decision (issue 33): with Node's default visitor cache in bucketing mode, a record
// decided on the file in use, for the same id, context and history, is given again without deciding anew, and
// anything the engine reads that changed since (the context, the id) makes it decide again. A new file is
// test/core/decision/bucketing.test.ts's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigBuilder, FeatureInstance, Level, Mode, type Visitor } from '../../../src/core/node.js';
import type { BucketingFile } from '../../../src/protocol/index.js';
import { startProtocolDouble, type ProtocolDouble } from '../../support/protocol-double.js';
import { VECTORS, vectorFile } from '../decision/bucketing-files.js';

/** §15's file plus a campaign shown only to `plan: gold` visitors (flag `perk`). */
const fileWithPerk = (perk: string): BucketingFile => {
  const file = vectorFile();
  return {
    ...file,
    campaigns: [
      ...file.campaigns,
      {
        id: 'cgold',
        name: 'Gold perk',
        type: 'toggle',
        slug: null,
        bucketRanges: [{ r: [0, 100] }],
        variationGroups: [
          {
            id: 'vggold',
            name: 'Gold',
            targeting: {
              targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'plan', value: 'gold' }] }],
            },
            variations: [
              {
                id: 'vgold',
                name: 'Perk',
                reference: false,
                allocation: 100,
                modifications: { type: 'FLAG', value: { perk } },
              },
            ],
          },
        ],
      },
    ],
  };
};

void describe('a returning visitor in bucketing mode, with the default visitor cache', () => {
  let double: ProtocolDouble;
  let sdk: FeatureInstance;
  const [vector] = VECTORS;

  before(async () => {
    double = await startProtocolDouble({ bucketing: fileWithPerk('lounge') });
    sdk = new FeatureInstance();
    await sdk.start(
      double.script.envId,
      double.script.apiKey,
      new ConfigBuilder()
        .withMode(Mode.BUCKETING)
        .withServerUrl(double.url)
        .withLogLevel(Level.NONE)
        .withDisableDeveloperUsageTracking(true)
        .build(),
    );
  });
  after(async () => {
    await sdk.close();
    await double.close();
  });

  /** A new visitor object for the vector's id with `plan`, fetched. */
  const visit = async (plan: string): Promise<Visitor> => {
    const visitor = sdk
      .newVisitor({ visitorId: vector.id, hasConsented: true })
      .withContext({ plan })
      .build();
    await visitor.fetchFlags();
    return visitor;
  };
  const perk = (visitor: Visitor): string => visitor.getFlag('perk').value('none', { visitorExposed: false });

  void it('is given its kept decision again: the same flags, not a new decision', async () => {
    const first = await visit('gold');
    const second = await visit('gold');
    const third = await visit('gold');
    assert.equal(perk(second), 'lounge');
    assert.equal(second.getFlag('variation').value(-1, { visitorExposed: false }), vector.variation);
    // A decision made anew builds new flags; the kept one's are built once and shared from then on.
    assert.notEqual(second.$flags.get(), first.$flags.get(), 'the first return builds the kept flags');
    assert.equal(third.$flags.get(), second.$flags.get(), 'later returns share them: nothing was decided');
    // A second fetch of the same visitor object: the same.
    await third.fetchFlags();
    assert.equal(third.$flags.get(), second.$flags.get());
  });

  void it('is decided again when its context changed', async () => {
    await visit('gold');
    const silver = await visit('silver');
    assert.equal(perk(silver), 'none', 'the targeting is evaluated again on the new context');
    const gold = await visit('gold');
    assert.equal(perk(gold), 'lounge');
  });

  void it('is decided again when the context of the same visitor object changes', async () => {
    const visitor = await visit('gold');
    visitor.updateContext('plan', 'silver');
    await visitor.fetchFlags();
    assert.equal(perk(visitor), 'none');
  });

  void it('is decided again under another id', async () => {
    const visitor = await visit('gold');
    visitor.authenticate('member-7');
    await visitor.fetchFlags();
    assert.equal(visitor.visitorId, 'member-7');
    assert.equal(perk(visitor), 'lounge');
    assert.notEqual(visitor.$flags.get(), (await visit('gold')).$flags.get());
  });
});
