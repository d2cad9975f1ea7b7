// Issue 31: days before a retention horizon are final. A person or a visit window computed again from stored
// rows after months were dropped keeps the old ledger's days before the horizon and its first exposures before
// it; the rows count from the horizon on. Expected ledgers are written out by hand from those rules.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ledgerAfterHorizon, windowsAfterHorizon } from '../../../server/src/report/rollups/final-days.js';
import {
  ledgerOf,
  readLedger,
  storedLedger,
  type PersonExposure,
  type PersonGoalHit,
  type PersonLedger,
} from '../../../server/src/report/rollups/person-ledger.js';

const DAY = 86_400_000;
/** The horizon: 2026-10-01 00:00 UTC, day number 20362. */
const H = Date.UTC(2026, 9, 1);
const D = H / DAY;

const exposure = (variationId: string, createdMs: number, seq: number, groupId = 'g1'): PersonExposure => ({
  campaignId: 'c1',
  groupId,
  variationId,
  createdMs,
  seq,
});

const purchase = (createdMs: number, seq: number, revenue: number): PersonGoalHit => ({
  kind: 'transaction',
  goal: 'buy',
  revenue,
  createdMs,
  seq,
});

void describe('ledgerAfterHorizon', () => {
  void it('is ledgerOf when no horizon is stored', () => {
    const rows = { exposures: [exposure('v1', H - 5 * DAY, 1)], hits: [purchase(H - 4 * DAY, 2, 10)] };
    assert.deepEqual(
      ledgerAfterHorizon(undefined, rows.exposures, rows.hits, 0),
      ledgerOf(rows.exposures, rows.hits),
    );
  });

  void it('keeps the dropped days and the first exposure before the horizon, and counts the rest from rows', () => {
    // Stored before the drop: exposed to v1 ten days before H, bought 10 then, and 5 on day D+1.
    const old = ledgerOf(
      [exposure('v1', H - 10 * DAY, 1)],
      [purchase(H - 10 * DAY + 1000, 2, 10), purchase(H + DAY, 3, 5)],
    );
    // After the drop only the purchase of day D+1 is stored, plus a new one on day D+2.
    const after = ledgerAfterHorizon(old, [], [purchase(H + DAY, 3, 5), purchase(H + 2 * DAY, 4, 7)], H);
    assert.deepEqual(after, {
      exposures: [{ campaignId: 'c1', groupId: 'g1', variationId: 'v1', createdMs: H - 10 * DAY, seq: 1 }],
      goals: [
        {
          campaignId: 'c1',
          groupId: 'g1',
          variationId: 'v1',
          kind: 'transaction',
          goal: 'buy',
          revenueMicros: 22_000_000,
          days: { [D - 10]: 1, [D + 1]: 1, [D + 2]: 1 },
          revenueDays: { [D - 10]: 10_000_000, [D + 1]: 5_000_000, [D + 2]: 7_000_000 },
        },
      ],
      seen: [{ campaignId: 'c1', kind: 'transaction', goal: 'buy' }],
    });
  });

  void it('keeps a first exposure before the horizon against an older one that arrives late', () => {
    const old = ledgerOf([exposure('v1', H - 5 * DAY, 1)], [purchase(H - 4 * DAY, 2, 3)]);
    // A late exposure to v2, created before v1's, stored after the drop: the days before H stay v1's.
    const after = ledgerAfterHorizon(old, [exposure('v2', H - 8 * DAY, 9)], [], H);
    assert.deepEqual(after, old);
  });

  void it('moves only days from the horizon on when a late link brings an earlier exposure after it', () => {
    // The person: exposed in group g2 before H (kept), and in g1 on day D+3, converting on day D+4.
    const old = ledgerOf(
      [exposure('v4', H - 3 * DAY, 1, 'g2'), exposure('v2', H + 3 * DAY, 5)],
      [purchase(H - 2 * DAY, 2, 1), purchase(H + 4 * DAY, 6, 2)],
    );
    // A link brings an anonymous id's exposure to v1 on day D+1: g1's first exposure becomes it.
    const after = ledgerAfterHorizon(
      old,
      [exposure('v2', H + 3 * DAY, 5), exposure('v1', H + DAY, 3)],
      [purchase(H + 4 * DAY, 6, 2)],
      H,
    );
    assert.deepEqual(after.exposures, [
      { campaignId: 'c1', groupId: 'g2', variationId: 'v4', createdMs: H - 3 * DAY, seq: 1 },
      { campaignId: 'c1', groupId: 'g1', variationId: 'v1', createdMs: H + DAY, seq: 3 },
    ]);
    assert.deepEqual(
      after.goals.map((g) => [g.groupId, g.variationId, g.days, g.revenueMicros]),
      [
        // g2's purchase before H is kept; the one on D+4 is counted again from the row.
        ['g2', 'v4', { [D - 2]: 1, [D + 4]: 1 }, 3_000_000],
        ['g1', 'v1', { [D + 4]: 1 }, 2_000_000],
      ],
    );
  });

  void it('forgets nothing a ledger stored before revenue per day was kept: spread by conversions', () => {
    const stored = storedLedger(
      ledgerOf([exposure('v1', H - 10 * DAY, 1)], [purchase(H - DAY, 2, 1), purchase(H + DAY, 3, 3)]),
    );
    // The seven-element form of migration 9: no revenue per day.
    const legacy = { ...stored, g: stored.g.map((g) => g.slice(0, 7) as (typeof stored.g)[number]) };
    const ledger: PersonLedger = readLedger(legacy);
    assert.deepEqual(
      ledger.goals.map((g) => [g.revenueDays, g.revenueMicros]),
      [[{ [D - 1]: 2_000_000, [D + 1]: 2_000_000 }, 4_000_000]],
    );
  });
});

void describe('windowsAfterHorizon', () => {
  void it('keeps the visits of days before the horizon and counts the rest from rows', () => {
    const old = { openedMs: H + DAY, days: { [D - 3]: 2, [D + 1]: 1 } };
    const after = windowsAfterHorizon(
      old,
      [
        { createdMs: H - 4 * DAY, seq: 7 }, // late, before H: that day is final
        { createdMs: H + DAY, seq: 8 },
        { createdMs: H + 2 * DAY, seq: 9 },
      ],
      H,
    );
    assert.deepEqual(after, { openedMs: H + 2 * DAY, days: { [D - 3]: 2, [D + 1]: 1, [D + 2]: 1 } });
  });

  void it('keeps an old chain whose rows are all gone', () => {
    const old = { openedMs: H - 3 * DAY, days: { [D - 3]: 2 } };
    assert.deepEqual(windowsAfterHorizon(old, [], H), old);
    assert.equal(windowsAfterHorizon(null, [], H), null);
  });
});
