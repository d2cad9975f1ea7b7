// Where the daily chart's marks go when a line cannot show them: markers of equal (or nearly equal) values on the
// same day are spread sideways instead of drawn on top of each other, and a single day, which has no line to
// draw, becomes a group of bars side by side. Pure geometry, so the chart stays a template.

/** One mark of a day: which series (variation index, metric) and the y it is drawn at. */
export interface DayMark {
  /** The variation's index (its colour and marker shape). */
  series: number;
  /** Conversions are the dashed series, visits the solid one. */
  conversions: boolean;
  /** The y of its value, in SVG coordinates. */
  y: number;
}

/**
 * The x offset of each mark of one day, in the order given: marks whose y are closer than `size` (a marker's
 * width) form a cluster, and a cluster of k marks is spread over k slots `size + 2` apart, centred on the day, in
 * series order. A mark alone keeps offset 0.
 */
export const dodge = (marks: readonly DayMark[], size: number): number[] => {
  const offsets = new Array<number>(marks.length).fill(0);
  const order = marks.map((mark, index) => ({ mark, index })).sort((a, b) => a.mark.y - b.mark.y);
  let start = 0;
  for (let end = 1; end <= order.length; end++) {
    const previous = order[end - 1];
    const next = order[end];
    // A cluster ends where the next mark is a marker's width away from the last one.
    if (next !== undefined && previous !== undefined && next.mark.y - previous.mark.y < size) continue;
    const cluster = order
      .slice(start, end)
      .sort(
        (a, b) => a.mark.series - b.mark.series || Number(a.mark.conversions) - Number(b.mark.conversions),
      );
    cluster.forEach(({ index }, slot) => {
      offsets[index] = (slot - (cluster.length - 1) / 2) * (size + 2);
    });
    start = end;
  }
  return offsets;
};

/** A bar of the single-day chart: its left x and width. */
export interface DayBar {
  series: number;
  conversions: boolean;
  x: number;
  width: number;
}

/**
 * The bars of a single day for `variations` variations, visits then conversions for each, side by side and
 * centred on `centre`, within `room` pixels: at most 36 px wide each, with a 2 px gap inside a variation's pair
 * and a wider one between variations.
 */
export const dayBars = (variations: number, centre: number, room: number): DayBar[] => {
  const pairGap = 8;
  const width = Math.max(
    4,
    Math.min(36, (room - pairGap * (variations - 1) - 2 * variations) / (2 * variations)),
  );
  const pair = 2 * width + 2;
  const total = variations * pair + (variations - 1) * pairGap;
  const left = centre - total / 2;
  const bars: DayBar[] = [];
  for (let series = 0; series < variations; series++)
    for (const conversions of [false, true])
      bars.push({
        series,
        conversions,
        x: left + series * (pair + pairGap) + (conversions ? width + 2 : 0),
        width,
      });
  return bars;
};
