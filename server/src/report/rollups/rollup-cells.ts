// The cells of a campaign's rollups (table campaign_rollups) and the deltas a fold adds to them. One table holds
// every kind of figure, told apart by which key parts are blank:
// - a variation, day -1: its visitors (persons whose first exposure in the group it is) and its first
//   activation's (created time, seq), which orders variations the campaign no longer defines (§14.5 keeps them);
// - a variation, day d: its visits on UTC day d (§14.1);
// - a variation and a goal, day -1: converting visitors and revenue; day d: conversions on day d (§14.3-14.4);
// - a goal with no group or variation, day -1: how many exposed persons sent it ("seen": every goal seen in
//   the campaign is shown for every variation, §14.5).

/** Day of the cells that are not per day. */
export const ALL_DAYS = -1;

/** A goal's kind in the rollups; '' in the cells that are not per goal. */
export type RollupGoalKind = '' | 'event' | 'transaction';

/** Where a figure sits. */
export interface RollupCellKey {
  campaignId: string;
  groupId: string;
  variationId: string;
  goalKind: RollupGoalKind;
  goal: string;
  day: number;
}

/** The figures of one cell (or what a fold adds to them). */
export interface RollupFigures {
  visits: number;
  visitors: number;
  conversions: number;
  converters: number;
  /** Revenue in millionths (attribution.ts: exact sums). */
  revenueMicros: number;
  seen: number;
  /** The earliest activation's created time and seq (variation cells, day -1), else null. */
  firstMs: number | null;
  firstSeq: number | null;
}

/** One cell: its key and figures. */
export type RollupCell = RollupCellKey & RollupFigures;

/** A figure a delta adds to. */
export type AdditiveFigure = 'visits' | 'visitors' | 'conversions' | 'converters' | 'revenueMicros' | 'seen';

const ADDITIVE: readonly AdditiveFigure[] = [
  'visits',
  'visitors',
  'conversions',
  'converters',
  'revenueMicros',
  'seen',
];

const keyOf = (k: RollupCellKey): string =>
  JSON.stringify([k.campaignId, k.groupId, k.variationId, k.goalKind, k.goal, k.day]);

/** What one fold adds to the rollups, gathered by cell so that a batch writes each cell once. */
export class RollupDeltas {
  readonly #cells = new Map<string, RollupCell>();

  #cell(key: RollupCellKey): RollupCell {
    const id = keyOf(key);
    let cell = this.#cells.get(id);
    if (cell === undefined) {
      cell = {
        campaignId: key.campaignId,
        groupId: key.groupId,
        variationId: key.variationId,
        goalKind: key.goalKind,
        goal: key.goal,
        day: key.day,
        visits: 0,
        visitors: 0,
        conversions: 0,
        converters: 0,
        revenueMicros: 0,
        seen: 0,
        firstMs: null,
        firstSeq: null,
      };
      this.#cells.set(id, cell);
    }
    return cell;
  }

  /** Adds `amount` to one figure of one cell. */
  add(key: RollupCellKey, figure: AdditiveFigure, amount: number): void {
    if (amount === 0) return;
    this.#cell(key)[figure] += amount;
  }

  /** Records an activation of a variation at (createdMs, seq): the cell keeps the earliest. */
  firstActivation(key: RollupCellKey, createdMs: number, seq: number): void {
    const cell = this.#cell(key);
    if (
      cell.firstMs === null ||
      createdMs < cell.firstMs ||
      (createdMs === cell.firstMs && seq < (cell.firstSeq ?? Infinity))
    ) {
      cell.firstMs = createdMs;
      cell.firstSeq = seq;
    }
  }

  /** The cells that change something. */
  changed(): RollupCell[] {
    return [...this.#cells.values()].filter(
      (c) => c.firstMs !== null || ADDITIVE.some((figure) => c[figure] !== 0),
    );
  }

  /** The campaigns whose rollups change. */
  campaigns(): string[] {
    return [...new Set(this.changed().map((c) => c.campaignId))];
  }
}

/** A variation's cell key (not per goal). */
export const variationCell = (
  campaignId: string,
  groupId: string,
  variationId: string,
  day: number,
): RollupCellKey => ({ campaignId, groupId, variationId, goalKind: '', goal: '', day });
