// OFREP decides as the decision API does (PROTOCOL.md §18), over the random cases of the shared vectors
// (/work/shared/vectors/decisions.json, copied into test/fixtures/engine-cases.json): whole bucketing files,
// visitors with contexts and stored histories, XPC, 1V1T and panic. For every visitor, every flag the decision
// API gives (§9.1, built here by the rule, not by the server's code) is OFREP's bulk answer, value and
// variation alike; where the vector's own flags apply (no anonymous id: OFREP has none), they are too.
// Half the visitors are asked through OFREP first and half through the decision API first, so each route
// reads the assignments the other wrote.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import type { BucketingFile, Decision, JsonValue } from '../../../src/protocol/index.js';
import type { EngineCases } from '../../engine/engine-cases.js';
import { describeOnEveryStoreWith, post, seedEnvironment, startApp, type Running } from '../support.js';
import type { Store } from '../../../server/src/store/store.js';

const cases = JSON.parse(
  readFileSync(new URL('../../fixtures/engine-cases.json', import.meta.url), 'utf8'),
) as EngineCases;

interface Evaluation {
  key: string;
  value?: JsonValue;
  reason: string;
  metadata: { campaignId?: string; variationId?: string };
}

/** A flag as both routes must give it: value (null: none), campaign and variation. */
interface Flag {
  key: string;
  value: JsonValue;
  campaignId: string;
  variationId: string;
}

/** §9.1 over a decision's campaigns: the last campaign wins, a null never replaces an earlier value. */
const flagsOfDecision = (decision: Decision): Flag[] => {
  const flags = new Map<string, Flag>();
  for (const campaign of decision.campaigns)
    for (const [key, value] of Object.entries(campaign.variation.modifications.value)) {
      const earlier = flags.get(key);
      if (value === null && earlier !== undefined && earlier.value !== null) continue;
      flags.set(key, { key, value, campaignId: campaign.id, variationId: campaign.variation.id });
    }
  return [...flags.values()];
};

const flagsOfOfrep = (evaluations: readonly Evaluation[]): Flag[] =>
  evaluations.map((e) => ({
    key: e.key,
    value: e.value ?? null,
    campaignId: e.metadata.campaignId ?? '',
    variationId: e.metadata.variationId ?? '',
  }));

const sortedByKey = (flags: readonly Flag[]): Flag[] => [...flags].sort((a, b) => (a.key < b.key ? -1 : 1));

describeOnEveryStoreWith<{ store: Store; server: Running }>(
  'OFREP decides as the decision API over the shared vectors',
  {
    start: async (store) => ({ store, server: await startApp(store) }),
    stop: ({ server }) => server.close(),
  },
  (_kind, started) => {
    cases.decisions.forEach((vector, index) => {
      const file = vector.file as BucketingFile;
      const settings = file.accountSettings ?? { enabledXPC: false, enabled1V1T: false };
      const title = `file ${index}: ${file.campaigns.length} campaigns, ${vector.cases.length} visitors${file.panic ? ', panic' : ''}${settings.enabledXPC ? ', XPC' : ''}${settings.enabled1V1T ? ', 1V1T' : ''}`;
      void it(title, async () => {
        const { store, server } = started('server');
        const env = await seedEnvironment(store, file.campaigns, settings);
        if (file.panic) await store.setPanic(env.envId, true);
        // The histories the vectors start from (§8.4), stored before either route reads them.
        await store.saveAssignments(
          env.envId,
          vector.cases
            .filter((c) => Object.keys(c.visitor.assignments).length > 0)
            .map((c) => ({
              visitorId: c.visitor.id,
              history: c.visitor.assignments,
              lastUsedMs: Date.now(),
            })),
        );
        let compared = 0;
        for (const [i, c] of vector.cases.entries()) {
          const ofrep = async (): Promise<Evaluation[]> => {
            const res = await post(
              `${server.url}/ofrep/v1/evaluate/flags`,
              { context: { ...c.visitor.context, targetingKey: c.visitor.id } },
              { authorization: `Bearer ${env.apiKey}` },
            );
            assert.equal(res.status, 200, `${c.visitor.id}: ${JSON.stringify(res.body)}`);
            return (res.body as { flags: Evaluation[] }).flags;
          };
          const decide = async (): Promise<Decision> => {
            const res = await post(
              `${server.url}/v2/${env.envId}/campaigns?exposeAllKeys=true&sendContextEvent=false`,
              { visitorId: c.visitor.id, context: c.visitor.context },
              { 'x-api-key': env.apiKey },
            );
            assert.equal(res.status, 200, `${c.visitor.id}: ${JSON.stringify(res.body)}`);
            return res.body as Decision;
          };
          let evaluations: Evaluation[];
          let decision: Decision;
          if (i % 2 === 0) {
            evaluations = await ofrep();
            decision = await decide();
          } else {
            decision = await decide();
            evaluations = await ofrep();
          }
          const where = `visitor ${c.visitor.id} (case ${i})`;
          if (file.panic) {
            assert.equal(decision.panic, true, where);
            assert.ok(evaluations.length > 0, where);
            for (const e of evaluations)
              assert.deepEqual(e, { key: e.key, reason: 'DISABLED', metadata: {} }, where);
            compared++;
            continue;
          }
          // In the decision's order (§9.1), value and variation alike.
          assert.deepEqual(flagsOfOfrep(evaluations), flagsOfDecision(decision), where);
          for (const e of evaluations) assert.notEqual(e.reason, 'DISABLED', where);
          if (c.visitor.anonymousId === undefined || c.visitor.anonymousId === null) {
            const expected = Object.entries(c.flags ?? {}).map(([key, f]): Flag => ({
              key,
              value: f.value,
              campaignId: f.campaignId,
              variationId: f.variationId,
            }));
            assert.deepEqual(
              sortedByKey(flagsOfOfrep(evaluations)),
              sortedByKey(expected),
              `${where}: vector`,
            );
          }
          compared++;
        }
        assert.equal(compared, vector.cases.length);
      });
    });
  },
);
