// Randomised properties of the engine (PROTOCOL.md §8.1-§8.4), reproducible from fixed seeds. Node only:
// the browser runs the same engine code through engine.browser.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileFile, evaluate, murmur3 } from '../../src/engine/index.js';
import type { AssignmentHistory, BucketingCampaign, BucketingFile } from '../../src/protocol/index.js';
import { seededRandom } from '../support/seeded-random.js';

const prng = seededRandom;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789-_@.';
const EXOTIC = ['é', 'ß', '訪', '問', '😀', '👩‍💻', '\u0800', '\uffff'];

/** A visitor id: mostly ASCII, one in five with non-ASCII characters. */
const randomId = (rand: () => number): string => {
  let id = '';
  const length = 4 + Math.floor(rand() * 20);
  const exotic = rand() < 0.2;
  for (let i = 0; i < length; i++) {
    id +=
      exotic && rand() < 0.3
        ? (EXOTIC[Math.floor(rand() * EXOTIC.length)] ?? '')
        : (ALPHABET[Math.floor(rand() * ALPHABET.length)] ?? '');
  }
  return id;
};

const shuffle = <T>(items: readonly T[], rand: () => number): T[] => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
};

const ALL_USERS = {
  targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'fs_all_users', value: '' }] }],
};

/** A campaign of `groups` variation groups, each with the given allocations, targeting `plan` or everyone. */
const campaign = (id: string, groups: { plan?: string; allocations: number[] }[]): BucketingCampaign => ({
  id,
  name: id,
  type: 'ab',
  variationGroups: groups.map((g, gi) => ({
    id: `${id}-g${gi}`,
    name: `${id} group ${gi}`,
    targeting:
      g.plan === undefined
        ? ALL_USERS
        : { targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'plan', value: g.plan }] }] },
    variations: g.allocations.map((allocation, vi) => ({
      id: `${id}-g${gi}-v${vi}`,
      name: `v${vi}`,
      reference: vi === 0,
      allocation,
      modifications: { type: 'FLAG', value: { [`${id}-flag`]: vi } },
    })),
  })),
});

/** A file of `n` campaigns with random allocations and targeting on `plan`. */
const randomFile = (n: number, rand: () => number): BucketingFile => ({
  panic: false,
  accountSettings: { enabledXPC: false, enabled1V1T: false },
  campaigns: Array.from({ length: n }, (_, i) =>
    campaign(
      `c${i}`,
      Array.from({ length: 1 + Math.floor(rand() * 2) }, (_g, gi) => {
        const count = 1 + Math.floor(rand() * 4);
        let left = 100;
        const allocations = Array.from({ length: count }, () => {
          const a = Math.floor(rand() * (left + 1));
          left -= a;
          return a;
        });
        return gi === 0 && rand() < 0.5 ? { plan: 'gold', allocations } : { allocations };
      }),
    ),
  ),
});

const randomVisitor = (rand: () => number, assignments: AssignmentHistory = {}) => ({
  id: randomId(rand),
  context: rand() < 0.5 ? { plan: 'gold' } : {},
  assignments,
});

void describe('engine properties (seeded)', () => {
  void it('over 100 000 ids every variation gets its allocation ±1 point', () => {
    const shares = [
      [10, 20, 30, 15, 25],
      [5, 45, 0, 0],
      [1, 99],
      [33, 33, 34],
    ];
    const file = compileFile({
      panic: false,
      campaigns: shares.map((allocations, i) => campaign(`share${i}`, [{ allocations }])),
    });
    const counts = shares.map((a) => a.map(() => 0));
    const rand = prng(1);
    const n = 100_000;
    for (let i = 0; i < n; i++) {
      const { decision } = evaluate(file, { id: randomId(rand), context: {}, assignments: {} });
      for (const c of decision.campaigns) {
        const ci = Number(c.id.slice('share'.length));
        const vi = Number(c.variation.id.split('-v')[1]);
        const row = counts[ci];
        if (row !== undefined) row[vi] = (row[vi] ?? 0) + 1;
      }
    }
    shares.forEach((allocations, ci) => {
      allocations.forEach((allocation, vi) => {
        const share = ((counts[ci]?.[vi] ?? 0) / n) * 100;
        assert.ok(
          Math.abs(share - allocation) <= 1,
          `campaign ${ci} variation ${vi}: ${share}% for ${allocation}%`,
        );
      });
    });
  });

  void it('a variation group is assigned the same whatever the order of the campaigns (1V1T off)', () => {
    const rand = prng(2);
    const file = randomFile(20, rand);
    const orders = [
      file,
      ...Array.from({ length: 4 }, () => ({ ...file, campaigns: shuffle(file.campaigns, rand) })),
    ];
    const compiled = orders.map((f) => compileFile(f));
    for (let i = 0; i < 2000; i++) {
      const visitor = randomVisitor(rand);
      const [first, ...others] = compiled.map((f) => evaluate(f, visitor));
      for (const other of others) assert.deepEqual(other.newAssignments, first?.newAssignments);
    }
  });

  void it('a history gives the same decision whatever the order it was built in', () => {
    const rand = prng(3);
    const file = randomFile(15, rand);
    const whole = compileFile(file);
    for (let i = 0; i < 500; i++) {
      const visitor = randomVisitor(rand);
      const fresh = evaluate(whole, visitor);
      for (let round = 0; round < 3; round++) {
        // Build the history campaign by campaign in a random order, as successive fetches would.
        const history: AssignmentHistory = {};
        for (const c of shuffle(file.campaigns, rand)) {
          const part = evaluate({ ...file, campaigns: [c] }, { ...visitor, assignments: history });
          Object.assign(history, part.newAssignments);
        }
        const reordered = Object.fromEntries(shuffle(Object.entries(history), rand));
        const again = evaluate(whole, { ...visitor, assignments: reordered });
        assert.deepEqual(again.decision, fresh.decision);
        assert.deepEqual(again.newAssignments, {});
        assert.deepEqual(history, fresh.newAssignments);
      }
    }
  });

  void it('a history variation that no longer exists drops its campaign and nothing else', () => {
    const rand = prng(4);
    const file = compileFile(randomFile(20, rand));
    let dropped = 0;
    for (let i = 0; i < 2000; i++) {
      const visitor = randomVisitor(rand);
      const before = evaluate(file, visitor);
      const victim = before.decision.campaigns[Math.floor(rand() * before.decision.campaigns.length)];
      if (victim === undefined) continue;
      const after = evaluate(file, {
        ...visitor,
        assignments: { [victim.variationGroupId]: 'deleted-variation' },
      });
      const expected = before.decision.campaigns.filter((c) => c !== victim);
      assert.deepEqual(after.decision.campaigns, expected);
      assert.equal(victim.variationGroupId in after.newAssignments, false);
      dropped++;
    }
    assert.ok(dropped > 1000);
  });

  void it('murmur3 agrees with a reference over TextEncoder bytes, lone surrogates included', () => {
    // An independent byte-wise MurmurHash3 x86 32-bit, seed 0.
    const reference = (bytes: Uint8Array): number => {
      let h = 0;
      const tail = bytes.length & ~3;
      const mix = (k: number): number =>
        Math.imul(((k = Math.imul(k, 0xcc9e2d51)) << 15) | (k >>> 17), 0x1b873593);
      for (let i = 0; i < tail; i += 4) {
        h ^= mix(
          (bytes[i] ?? 0) |
            ((bytes[i + 1] ?? 0) << 8) |
            ((bytes[i + 2] ?? 0) << 16) |
            ((bytes[i + 3] ?? 0) << 24),
        );
        h = (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0;
      }
      let k = 0;
      for (let i = bytes.length - 1; i >= tail; i--) k = (k << 8) | (bytes[i] ?? 0);
      if (bytes.length > tail) h ^= mix(k);
      h ^= bytes.length;
      h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
      h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
      return (h ^ (h >>> 16)) >>> 0;
    };
    const encoder = new TextEncoder();
    const rand = prng(5);
    for (let i = 0; i < 5000; i++) {
      let s = '';
      const length = Math.floor(rand() * 24);
      for (let j = 0; j < length; j++) s += String.fromCharCode(Math.floor(rand() * 0x10000));
      s = rand() < 0.5 ? s : randomId(rand) + s;
      assert.equal(murmur3(s), reference(encoder.encode(s)), JSON.stringify(s));
    }
  });
});
