// What "every field reachable" means in the narrow-layout tests: each element is drawn (a box with a size), lies
// within the window's width (so no sideways scroll is needed to see it), and is the element actually seen at its
// centre once scrolled into view (nothing covers it, and it is not clipped away by a scrolling box).
import { assert } from '@open-wc/testing';

/** Checks that each of `elements`, all in `root`'s shadow tree, is visible within the window's width. */
export const assertReachable = (root: ShadowRoot, elements: readonly Element[], what: string): void => {
  assert.isAbove(elements.length, 0, `some ${what} to check`);
  const width = window.innerWidth;
  for (const element of elements) {
    element.scrollIntoView({ block: 'center', inline: 'nearest' });
    const box = element.getBoundingClientRect();
    const name = `${what}: <${element.localName}> “${element.textContent.replace(/\s+/g, ' ').trim().slice(0, 40)}”`;
    assert.isAbove(box.width, 0, `${name} has a width`);
    assert.isAbove(box.height, 0, `${name} has a height`);
    assert.isAtLeast(box.left, 0, `${name} starts inside the window (left ${box.left})`);
    assert.isAtMost(box.right, width, `${name} ends inside the ${width} px window (right ${box.right})`);
    const seen = root.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    assert.isTrue(
      seen !== null && (seen === element || element.contains(seen)),
      `${name} is what is seen at its centre (saw <${seen?.localName ?? 'nothing'}>)`,
    );
  }
  assert.isAtMost(document.documentElement.scrollWidth, width, 'the page does not scroll sideways');
};

/** The ARIA role each part of a table must spell out: `display: block` makes Safari drop the native ones. */
const TABLE_ROLES: Readonly<Record<string, string>> = {
  table: 'table',
  thead: 'rowgroup',
  tbody: 'rowgroup',
  tr: 'row',
  td: 'cell',
};

/**
 * Checks that every part of each table in `root` that stacks into cards (widgets/stacked-table.ts) names its
 * role, so assistive technology still reads a table where the cards' CSS removed the native semantics.
 */
export const assertTableRoles = (root: ShadowRoot): void => {
  const tables = [...root.querySelectorAll('.stacks table')];
  assert.isAbove(tables.length, 0, 'a stacking table to check');
  for (const table of tables)
    for (const part of [table, ...table.querySelectorAll('thead, tbody, tr, th, td')]) {
      const expected =
        part.localName === 'th'
          ? part.getAttribute('scope') === 'row'
            ? 'rowheader'
            : 'columnheader'
          : TABLE_ROLES[part.localName];
      assert.strictEqual(
        part.getAttribute('role'),
        expected,
        `<${part.localName}> “${part.textContent.trim().slice(0, 30)}” names its role`,
      );
    }
};
