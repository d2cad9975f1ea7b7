// The items of one activation or hit request (PROTOCOL.md §4, §5.2): each is checked on its own, so a bad
// item is rejected with its index and the valid ones beside it are stored. An item limit bounds the work
// (items past it are rejected by index, unread) and a cap on the rejections listed bounds the answer
// (`rejectedCount` gives the total), so that a 3 MiB body of junk costs a few kilobytes of answer.
import { MAX_REJECTIONS_LISTED, type ItemRejection } from 'feature-ts/protocol';

/** What checking a batch's items gave: the rows to store and the rejections. */
export interface CheckedBatch<Row> {
  rows: Row[];
  /** The first rejections in index order, at most MAX_REJECTIONS_LISTED. */
  rejected: ItemRejection[];
  /** How many items were rejected in all. */
  rejectedCount: number;
}

/**
 * Checks the first `limit` items with `check` (given the item and its index); every item past `limit` is
 * rejected with `pastLimit(index)`, without being read.
 */
export const checkBatch = <Row>(
  items: readonly unknown[],
  limit: number,
  check: (item: unknown, index: number) => { row: Row } | { message: string },
  pastLimit: (index: number) => string,
): CheckedBatch<Row> => {
  const rows: Row[] = [];
  const rejected: ItemRejection[] = [];
  const processed = Math.min(items.length, limit);
  let rejectedCount = items.length - processed;
  for (let index = 0; index < processed; index++) {
    const checked = check(items[index], index);
    if ('row' in checked) {
      rows.push(checked.row);
      continue;
    }
    rejectedCount++;
    if (rejected.length < MAX_REJECTIONS_LISTED) rejected.push({ index, message: checked.message });
  }
  for (let index = processed; index < items.length && rejected.length < MAX_REJECTIONS_LISTED; index++)
    rejected.push({ index, message: pastLimit(index) });
  return { rows, rejected, rejectedCount };
};
