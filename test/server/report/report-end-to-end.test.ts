// Issue 30 end to end, on both stores: traffic with a known split and known conversions sent through the real
// routes (activations, hits) to a server process gives exactly the expected counts, figures and verdicts, and
// the remote control API, the operator route and the CLI's --json say the same. A 60/40 split on a 50/50
// allocation (2 000 visitors) is a sample ratio mismatch in all three. Expected figures: mpmath
// (test/fixtures/report-statistics.py), never the server's code.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { BucketingCampaign, CampaignReport } from '../../../src/protocol/index.js';
import { runCliInProcess, startServerProcess } from '../cli-support.js';
import { post } from '../support.js';
import { copyTemplateDataDir } from '../template-data-dir.js';

const KEY = 'operator-key-report-end-to-end-0123456789';

interface Fixture {
  sequential: Array<{ input: number[]; expected: { p_value: number; interval: [number, number] } }>;
  srm: Array<{ input: [number[], number[]]; expected: { p_value: number; mismatch: boolean } }>;
}
const fixture = JSON.parse(
  readFileSync(new URL('../../fixtures/report-statistics.json', import.meta.url), 'utf8'),
) as Fixture;
const expectedSequential = (input: number[]) =>
  fixture.sequential.find((c) => c.input.join() === input.join())?.expected;
const expectedSrm = (observed: number[]) =>
  fixture.srm.find((c) => c.input[0].join() === observed.join() && c.input[1].join() === '50,50')?.expected;

const close = (actual: number | null | undefined, expected: number | undefined, what: string): void => {
  assert.ok(typeof actual === 'number' && typeof expected === 'number', `${what}: ${actual} / ${expected}`);
  assert.ok(
    Math.abs(actual - expected) <= 1e-9 * Math.max(Math.abs(expected), 1e-300),
    `${what}: ${actual} ≠ ${expected}`,
  );
};

/** An A/B campaign, 50/50, primary goal add_to_cart, tuned for `expected` visitors. */
const campaign = (id: string, expected: number): BucketingCampaign => ({
  id,
  name: id,
  type: 'ab',
  analysis: { primary_goal: { type: 'event', name: 'add_to_cart' }, expected_visitors: expected },
  variationGroups: [
    {
      id: `${id}-g`,
      name: 'Everyone',
      targeting: {
        targetingGroups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: '' }] }],
      },
      variations: [
        {
          id: `${id}-v1`,
          name: 'Original',
          reference: true,
          allocation: 50,
          modifications: { type: 'FLAG', value: {} },
        },
        {
          id: `${id}-v2`,
          name: 'Green',
          allocation: 50,
          modifications: { type: 'FLAG', value: { color: 'green' } },
        },
      ],
    },
  ],
});

const kinds = (): Array<{
  name: string;
  env: () => Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }>;
}> => {
  const list: ReturnType<typeof kinds> = [
    {
      name: 'embedded',
      env: async () => {
        const dir = mkdtempSync(join(tmpdir(), 'feature-report-e2e-'));
        // A copy of a migrated folder: the server would otherwise create it (initdb); what is tested is reports.
        await copyTemplateDataDir(join(dir, 'data'));
        return {
          env: { FEATURE_DATA_DIR: join(dir, 'data') },
          cleanup: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
        };
      },
    },
  ];
  const url = process.env.DATABASE_URL;
  if (url !== undefined && url !== '') {
    list.push({
      name: 'postgres',
      env: async () => {
        const schema = `test_${randomBytes(6).toString('hex')}`;
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`CREATE SCHEMA ${schema}`);
        const options = encodeURIComponent(`-c search_path=${schema}`);
        return {
          env: { DATABASE_URL: `${url}${url.includes('?') ? '&' : '?'}options=${options}` },
          cleanup: async () => {
            await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
            await client.end();
          },
        };
      },
    });
  }
  return list;
};

for (const kind of kinds()) {
  void describe(`report end to end (${kind.name})`, () => {
    let server: { child: ChildProcess; url: string };
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;
    let accountId = '';
    let envId = '';
    let token = '';
    let hid = 0;

    const operator = async (method: string, path: string, body?: unknown): Promise<unknown> => {
      const res = await fetch(`${server.url}/admin/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${KEY}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
      return text === '' ? null : (JSON.parse(text) as unknown);
    };

    /** Exposes `visitors` visitors to each variation and makes the first `converting` of each convert. */
    const traffic = async (
      id: string,
      visitors: [number, number],
      converting: [number, number],
    ): Promise<void> => {
      for (const [arm, count] of visitors.entries()) {
        const ids = Array.from({ length: count }, (_, i) => `${id}-${arm}-${i}`);
        for (let from = 0; from < ids.length; from += 500) {
          const batch = ids.slice(from, from + 500).map((vid) => ({
            vid,
            aid: null,
            caid: `${id}-g`,
            vaid: `${id}-v${arm + 1}`,
            qt: 0,
            hid: `a-${++hid}`,
          }));
          assert.equal((await post(`${server.url}/v2/activate`, { cid: envId, batch })).status, 204);
        }
        // Each converting visitor adds to cart twice: conversions count hits, visitors count persons.
        const hits = ids.slice(0, converting[arm]).flatMap((vid) =>
          [0, 1].map(() => ({
            t: 'EVENT',
            vid,
            cuid: null,
            qt: 0,
            hid: `h-${++hid}`,
            ec: 'Action Tracking',
            ea: 'add_to_cart',
          })),
        );
        for (let from = 0; from < hits.length; from += 500) {
          const answer = await post(`${server.url}/events`, {
            cid: envId,
            t: 'BATCH',
            h: hits.slice(from, from + 500),
          });
          assert.equal((answer.body as { accepted: number }).accepted, Math.min(500, hits.length - from));
        }
      }
    };

    /** The report three ways: remote control API, operator route, CLI --json. */
    const reports = async (id: string): Promise<CampaignReport[]> => {
      const remote = await fetch(
        `${server.url}/v1/accounts/${accountId}/account_environments/${envId}/campaigns/${id}/report`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      assert.equal(remote.status, 200);
      const operatorAnswer = (await operator('GET', `/environments/${envId}/reports?campaign=${id}`)) as {
        reports: CampaignReport[];
      };
      const cli = await runCliInProcess(['report', '--env', envId, '--campaign', id, '--json'], env);
      assert.equal(cli.code, 0, cli.stderr);
      return [
        (await remote.json()) as CampaignReport,
        operatorAnswer.reports[0] as CampaignReport,
        JSON.parse(cli.stdout) as CampaignReport,
      ];
    };

    /** The three answers agree on everything but generated_at and the CLI's store line. */
    const same = (all: CampaignReport[]): CampaignReport => {
      const strip = (r: CampaignReport) => {
        const { generated_at: _at, ...rest } = r as CampaignReport & { store?: unknown };
        delete (rest as { store?: unknown }).store;
        return rest;
      };
      const [first, ...others] = all.map(strip);
      for (const other of others) assert.deepEqual(other, first);
      return all[0] as CampaignReport;
    };

    before(async () => {
      ({ env, cleanup } = await kind.env());
      env = { ...env, FEATURE_OPERATOR_KEY: KEY };
      server = await startServerProcess(env);
      accountId = ((await operator('POST', '/accounts', { name: 'Shop' })) as { id: string }).id;
      const created = (await operator('POST', `/accounts/${accountId}/environments`, { name: 'prod' })) as {
        id: string;
      };
      envId = created.id;
      await operator('PUT', `/environments/${envId}/campaigns`, {
        campaigns: [campaign('even', 1200), campaign('broken', 5000)],
      });
      const access = (await operator('POST', `/accounts/${accountId}/accesses`, {
        name: 'reports',
        actions: ['report.read'],
      })) as { client_id: string; client_secret: string };
      const answer = await post(`${server.url}/oauth/${accountId}/token`, {
        grant_type: 'client_credentials',
        client_id: access.client_id,
        client_secret: access.client_secret,
      });
      token = (answer.body as { access_token: string }).access_token;
    });
    after(async () => {
      server.child.kill();
      await new Promise((resolve) => server.child.once('exit', resolve));
      await cleanup();
    });

    void it('an even split: exact counts, the expected figures and a better verdict, three times the same', async () => {
      await traffic('even', [600, 600], [60, 120]);
      const report = same(await reports('even'));
      assert.deepEqual(report.analysis, {
        primary_goal: { type: 'event', name: 'add_to_cart' },
        method: 'sequential',
        alpha: 0.05,
        expected_visitors: 1200,
      });
      const group = report.variation_groups[0];
      assert.ok(group !== undefined, 'one variation group');
      assert.deepEqual(group.srm?.observed, [600, 600]);
      close(group.srm.p_value, expectedSrm([600, 600])?.p_value, 'srm p');
      assert.equal(group.srm.mismatch, false);
      const [v1, v2] = group.variations;
      assert.deepEqual(
        [
          v1?.visitors,
          v1?.events.add_to_cart?.visitors,
          v1?.events.add_to_cart?.conversions,
          v1?.events.add_to_cart?.verdict,
        ],
        [600, 60, 120, 'reference'],
      );
      const cart = v2?.events.add_to_cart;
      assert.deepEqual([v2?.visitors, cart?.visitors, cart?.conversions], [600, 120, 240]);
      const expected = expectedSequential([60, 600, 120, 600, 0.05, 1200]);
      close(cart?.sequential.p_value, expected?.p_value, 'sequential p');
      close(cart?.sequential.adjusted_p_value, expected?.p_value, 'adjusted p (one comparison)');
      close(cart?.sequential.interval?.[0], expected?.interval[0], 'interval low');
      close(cart?.sequential.interval?.[1], expected?.interval[1], 'interval high');
      assert.equal(cart?.verdict, 'better');
    });

    void it('60/40 on a 50/50 allocation, 2 000 visitors: sample_ratio_mismatch in all three', async () => {
      await traffic('broken', [1200, 800], [120, 80]);
      const report = same(await reports('broken'));
      const group = report.variation_groups[0];
      assert.ok(group !== undefined, 'one variation group');
      assert.deepEqual(group.srm?.observed, [1200, 800]);
      assert.deepEqual(group.srm.expected, [1000, 1000]);
      close(group.srm.p_value, expectedSrm([1200, 800])?.p_value, 'srm p');
      assert.equal(group.srm.mismatch, true);
      assert.equal(group.variations[1]?.events.add_to_cart?.verdict, 'sample_ratio_mismatch');
      const table = await runCliInProcess(['report', '--env', envId, '--campaign', 'broken'], env);
      // The campaign and its group by name (the campaign is named after its id, its group "Everyone").
      assert.match(table.stdout, /broken, group Everyone: SAMPLE RATIO MISMATCH/);
    });
  });
}
