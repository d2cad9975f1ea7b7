// A campaign's analysis settings (PROTOCOL.md §14.6) in both campaign formats: the remote control API's
// (campaignFromRemote, toRemoteCampaign) and the import's (validateBucketingCampaigns). Set, read back with the
// defaults filled in, merged on a patch, stored as the fields that differ from the defaults; every bad field
// named by its path with what to change; unknown fields refused; a campaign stored without them reads the
// defaults; the served bucketing file leaves them out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ANALYSIS_DEFAULTS,
  type AnalysisSettings,
  type BucketingCampaign,
} from '../../../src/protocol/index.js';
import { buildEnvironmentState } from '../../../server/src/configuration/environment-state.js';
import { InputError } from '../../../server/src/errors.js';
import { campaignFromRemote, toRemoteCampaign } from '../../../server/src/remote/campaign-format.js';
import type { CampaignRecord } from '../../../server/src/store/campaign-store.js';
import type { EnvironmentConfiguration } from '../../../server/src/store/configuration-store.js';
import { analysisOf, checkAnalysis } from '../../../server/src/validation/analysis-settings.js';
import { validateBucketingCampaigns } from '../../../server/src/validation/bucketing-campaigns.js';
import { FieldError } from '../../../server/src/validation/field-error.js';

const DEFAULTS: AnalysisSettings = {
  primary_goal: null,
  method: 'sequential',
  alpha: 0.05,
  expected_visitors: 5000,
};

const body = (): BucketingCampaign => ({
  id: 'c1',
  name: 'Checkout',
  type: 'ab',
  slug: null,
  bucketRanges: [{ r: [0, 100] }],
  variationGroups: [
    {
      id: 'vg1',
      name: 'Everyone',
      targeting: {
        targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'fs_all_users', value: '' }] }],
      },
      variations: [
        {
          id: 'v1',
          name: 'Original',
          reference: true,
          allocation: 50,
          modifications: { type: 'FLAG', value: { btnColor: null } },
        },
        {
          id: 'v2',
          name: 'Green',
          reference: false,
          allocation: 50,
          modifications: { type: 'FLAG', value: { btnColor: 'green' } },
        },
      ],
    },
  ],
});

const record = (campaign: BucketingCampaign = body()): CampaignRecord => ({
  id: campaign.id,
  position: 0,
  state: 'active',
  description: '',
  body: campaign,
  createdMs: 0,
  updatedMs: 0,
  deletedMs: null,
});

/** A create body in the API's form, with `analysis` when given. */
const createBody = (analysis?: unknown): Record<string, unknown> => {
  const { variation_groups } = toRemoteCampaign(record());
  return {
    name: 'Checkout',
    type: 'ab',
    variation_groups,
    ...(analysis === undefined ? {} : { analysis }),
  };
};

const refusal = (run: () => unknown): FieldError => {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof InputError, 'an InputError (400 invalid_body)');
    assert.ok(error instanceof FieldError);
    return error;
  }
  return assert.fail('accepted');
};

void describe('analysis settings in the remote control API format', () => {
  void it('a campaign stored without them reads with the defaults, and its body stays without them', () => {
    const old = record();
    assert.deepEqual(toRemoteCampaign(old).analysis, DEFAULTS);
    assert.deepEqual(toRemoteCampaign(old).analysis, { ...ANALYSIS_DEFAULTS });
    assert.equal(Object.hasOwn(old.body, 'analysis'), false);
    // A patch of anything else leaves them out too.
    assert.equal(Object.hasOwn(campaignFromRemote({ name: 'Renamed' }, old).campaign, 'analysis'), false);
  });

  void it('a create body sets them: stored as the fields that differ from the defaults, read back whole', () => {
    const input = campaignFromRemote(
      createBody({ alpha: 0.01, primary_goal: { type: 'event', name: 'add_to_cart' }, method: 'sequential' }),
    );
    assert.deepEqual(input.campaign.analysis, {
      primary_goal: { type: 'event', name: 'add_to_cart' },
      alpha: 0.01,
    });
    assert.deepEqual(toRemoteCampaign(record(input.campaign)).analysis, {
      primary_goal: { type: 'event', name: 'add_to_cart' },
      method: 'sequential',
      alpha: 0.01,
      expected_visitors: 5000,
    });
  });

  void it('all-default settings store nothing; {} and null store nothing', () => {
    for (const analysis of [DEFAULTS, {}, null]) {
      const input = campaignFromRemote(createBody(analysis));
      assert.equal(Object.hasOwn(input.campaign, 'analysis'), false, JSON.stringify(analysis));
    }
  });

  void it('a campaign read with GET and sent back (analysis included) stores the very same body', () => {
    const set = campaignFromRemote(
      createBody({ primary_goal: { type: 'transaction', name: 'Purchase' }, expected_visitors: 20000 }),
    ).campaign;
    const stored = record(set);
    const back = campaignFromRemote(toRemoteCampaign(stored), stored);
    assert.deepEqual(back.campaign, set);
  });

  void it('a patch merges field by field; primary_goal null clears the goal; analysis null resets all', () => {
    const stored = record({
      ...body(),
      analysis: { primary_goal: { type: 'event', name: 'add_to_cart' }, alpha: 0.01 },
    });
    assert.deepEqual(campaignFromRemote({ analysis: { method: 'fixed' } }, stored).campaign.analysis, {
      primary_goal: { type: 'event', name: 'add_to_cart' },
      method: 'fixed',
      alpha: 0.01,
    });
    assert.deepEqual(campaignFromRemote({ analysis: { primary_goal: null } }, stored).campaign.analysis, {
      alpha: 0.01,
    });
    // Back to the default value: the field is no longer stored.
    assert.deepEqual(campaignFromRemote({ analysis: { alpha: 0.05 } }, stored).campaign.analysis, {
      primary_goal: { type: 'event', name: 'add_to_cart' },
    });
    assert.equal(Object.hasOwn(campaignFromRemote({ analysis: null }, stored).campaign, 'analysis'), false);
    // Left out of a patch: kept as stored; the record is not shared.
    const kept = campaignFromRemote({ name: 'Renamed' }, stored).campaign;
    assert.deepEqual(kept.analysis, stored.body.analysis);
    assert.notEqual(kept.analysis, stored.body.analysis);
  });

  void it('accepts both bounds of alpha and expected_visitors', () => {
    for (const [alpha, visitors] of [
      [0.001, 100],
      [0.2, 100_000_000],
    ] as const) {
      const analysis = { alpha, expected_visitors: visitors };
      assert.deepEqual(campaignFromRemote(createBody(analysis)).campaign.analysis, analysis);
    }
  });

  const BAD: Array<[string, unknown, string, RegExp]> = [
    ['not an object', 'sequential', 'analysis', /must be an object .*or null for all the defaults/],
    ['a list', [], 'analysis', /must be an object/],
    ['unknown field', { beta: 0.2 }, 'analysis.beta', /is not a known field.*primary_goal, method/],
    ['camelCase field', { primaryGoal: null }, 'analysis.primaryGoal', /spells it primary_goal/],
    ['alpha too small', { alpha: 0.0001 }, 'analysis.alpha', /must be a number from 0\.001 to 0\.2/],
    ['alpha too large', { alpha: 0.5 }, 'analysis.alpha', /from 0\.001 to 0\.2 .*0\.05 is usual/],
    ['alpha huge', { alpha: 1e308 }, 'analysis.alpha', /must be a number from 0\.001 to 0\.2/],
    ['alpha as text', { alpha: '0.05' }, 'analysis.alpha', /must be a number/],
    ['alpha null', { alpha: null }, 'analysis.alpha', /must be a number/],
    ['method unknown', { method: 'bayesian' }, 'analysis.method', /must be one of sequential, fixed/],
    [
      'expected_visitors not whole',
      { expected_visitors: 1000.5 },
      'analysis.expected_visitors',
      /must be an integer from 100 to 100 000 000/,
    ],
    ['expected_visitors too few', { expected_visitors: 99 }, 'analysis.expected_visitors', /from 100/],
    ['expected_visitors huge', { expected_visitors: 1e308 }, 'analysis.expected_visitors', /to 100 000 000/],
    [
      'expected_visitors too many',
      { expected_visitors: 100_000_001 },
      'analysis.expected_visitors',
      /to 100 000 000/,
    ],
    [
      'primary_goal as text',
      { primary_goal: 'add_to_cart' },
      'analysis.primary_goal',
      /must be \{"type": "event"\|"transaction", "name": …\} or null/,
    ],
    [
      'primary_goal type unknown',
      { primary_goal: { type: 'pageview', name: 'x' } },
      'analysis.primary_goal.type',
      /must be one of event, transaction/,
    ],
    [
      'primary_goal type missing',
      { primary_goal: { name: 'x' } },
      'analysis.primary_goal.type',
      /is required: event or transaction/,
    ],
    [
      'primary_goal name missing',
      { primary_goal: { type: 'event' } },
      'analysis.primary_goal.name',
      /is required: the event's action or the transaction's affiliation/,
    ],
    [
      'primary_goal name empty',
      { primary_goal: { type: 'transaction', name: '' } },
      'analysis.primary_goal.name',
      /must not be empty/,
    ],
    [
      'primary_goal name too long',
      { primary_goal: { type: 'event', name: 'x'.repeat(501) } },
      'analysis.primary_goal.name',
      /at most 500 characters/,
    ],
    [
      'primary_goal name reserved',
      { primary_goal: { type: 'event', name: 'fs_consent' } },
      'analysis.primary_goal.name',
      /reserved: actions starting with fs_ are never goals/,
    ],
    [
      'primary_goal name unstorable',
      { primary_goal: { type: 'event', name: 'a\u0000' } },
      'analysis.primary_goal.name',
      /U\+0000/,
    ],
    [
      'primary_goal unknown field',
      { primary_goal: { type: 'event', name: 'x', label: 'y' } },
      'analysis.primary_goal.label',
      /is not a known field; known: type, name/,
    ],
  ];

  for (const [what, analysis, path, reason] of BAD) {
    void it(`${what} → ${path}`, () => {
      for (const existing of [undefined, record()]) {
        const sent = existing === undefined ? createBody(analysis) : { analysis };
        const parsed = JSON.parse(JSON.stringify(sent)) as unknown;
        const error = refusal(() => campaignFromRemote(parsed, existing));
        assert.equal(error.path, path, error.message);
        assert.ok(error.message.startsWith(`${path} `), error.message);
        assert.match(error.reason, reason);
      }
    });
  }

  void it('a stored field that is not valid reads as its default, so reading never fails', () => {
    const broken = { analysis: { alpha: 7, method: 'x', primary_goal: { type: 'event' } } } as unknown;
    assert.deepEqual(analysisOf(broken as BucketingCampaign), DEFAULTS);
    assert.deepEqual(
      analysisOf({ analysis: { expected_visitors: 20000, primary_goal: { type: 'event', name: 'a' } } }),
      { ...DEFAULTS, expected_visitors: 20000, primary_goal: { type: 'event', name: 'a' } },
    );
  });

  void it('checkAnalysis names the path it is given', () => {
    const error = refusal(() => checkAnalysis({ alpha: 1 }, 'campaigns[3].analysis'));
    assert.equal(error.path, 'campaigns[3].analysis.alpha');
  });
});

void describe('analysis settings in the import format', () => {
  const file = (analysis: unknown): unknown => ({ campaigns: [{ ...body(), analysis }] });

  void it('keeps them, stored as the fields that differ from the defaults', () => {
    const [campaign] = validateBucketingCampaigns(
      file({ primary_goal: { type: 'transaction', name: 'Purchase' }, method: 'fixed', alpha: 0.05 }),
    );
    assert.deepEqual(campaign?.analysis, {
      primary_goal: { type: 'transaction', name: 'Purchase' },
      method: 'fixed',
    });
  });

  void it('a file without them imports as before', () => {
    const [campaign] = validateBucketingCampaigns({ campaigns: [body()] });
    assert.deepEqual(campaign, body());
    const [nulled] = validateBucketingCampaigns(file(null));
    assert.equal(Object.hasOwn(nulled ?? {}, 'analysis'), false);
  });

  for (const [analysis, path, reason] of [
    [{ alpha: 0.3 }, 'campaigns[0].analysis.alpha', /from 0\.001 to 0\.2/],
    [{ primary_goal: { type: 'goal', name: 'x' } }, 'campaigns[0].analysis.primary_goal.type', /event/],
    [{ method: 'Sequential' }, 'campaigns[0].analysis.method', /sequential, fixed/],
    [{ expectedVisitors: 100 }, 'campaigns[0].analysis.expectedVisitors', /spells it expected_visitors/],
    ['fixed', 'campaigns[0].analysis', /must be an object/],
  ] as const) {
    void it(`refuses ${JSON.stringify(analysis)} naming ${path}`, () => {
      const error = refusal(() => validateBucketingCampaigns(file(analysis)));
      assert.equal(error.path, path, error.message);
      assert.match(error.reason, reason);
    });
  }
});

void describe('the served bucketing file', () => {
  void it('leaves the analysis settings out, and the rest of the campaign as stored', () => {
    const withSettings = { ...body(), analysis: { alpha: 0.01 } };
    const configuration: EnvironmentConfiguration = {
      environment: {
        id: 'e1',
        accountId: 'a1',
        name: 'Production',
        apiKeyDigest: new Uint8Array(32),
        panic: false,
        accountSettings: { enabledXPC: false, enabled1V1T: false },
        configTime: 0,
      },
      campaigns: [record(withSettings)],
      variations: [],
    };
    const state = buildEnvironmentState(configuration);
    const served = JSON.parse(state.bucketing.bytes.toString('utf8')) as { campaigns: unknown[] };
    assert.deepEqual(served.campaigns, [body()]);
    // The stored body is not changed by serving it.
    assert.deepEqual(withSettings.analysis, { alpha: 0.01 });
  });
});
