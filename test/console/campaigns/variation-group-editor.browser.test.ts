// variationGroupEditor(): a group's name, its variations' names, allocations and reference marker, adding and
// removing variations; the allocation sum is spoken as it changes, and a server message lands next to its input.
import { assert, expect } from '@open-wc/testing';
import { draftOf } from '../../../server/console/src/campaigns/campaign-draft.js';
import { variationGroupEditor } from '../../../server/console/src/campaigns/variation-group-editor.js';
import { campaignOf, typeInto, must } from '../console-fixture.js';
import { groupsOf, renderPart } from './draft-harness.js';

const editorOf = async (serverErrors?: ReadonlyMap<string, string>) => {
  const draft = draftOf(campaignOf(), 0);
  const group = must(draft.groups[0]);
  return renderPart(draft, (kit) => variationGroupEditor(kit, draft, group, 0), serverErrors);
};

describe('variationGroupEditor()', () => {
  it('edits names and allocations, and says what the unallocated visitors get', async () => {
    const part = await editorOf();
    await expect(part.root).to.be.accessible();
    typeInto(part.find('#f-variation_groups-0-name'), 'Mobile visitors');
    typeInto(part.find('#f-variation_groups-0-variations-1-name'), 'Green button');
    typeInto(part.find('#f-variation_groups-0-variations-0-allocation'), '30');
    typeInto(part.find('#f-variation_groups-0-variations-1-allocation'), '30');
    const [group] = groupsOf(part);
    assert.strictEqual(group?.name, 'Mobile visitors');
    assert.deepEqual(
      group?.variations.map((v) => [v.id, v.name, v.allocation, v.reference]),
      [
        ['v-orig', 'Original', 30, true],
        ['v-green', 'Green button', 30, false],
      ],
    );
    assert.strictEqual(part.find('[data-testid=allocated-0]').getAttribute('role'), 'status');
    assert.match(
      part.find('[data-testid=allocated-0]').textContent,
      /Allocated: 60 % of 100 %\. The other 40 % of this group's visitors get no variation/,
    );
    typeInto(part.find('#f-variation_groups-0-variations-1-allocation'), '80');
    assert.match(part.find('[data-testid=allocated-0]').textContent, /110 % of 100 %, 10 % too many/);
    assert.match(part.issues().get('variation_groups[0].variations') ?? '', /more than 100 %/);
  });

  it('adds a variation, moves the reference, and hands the reference on when its variation is removed', async () => {
    const part = await editorOf();
    const buttons = () => [...part.root.querySelectorAll('button')];
    buttons()
      .find((b) => b.textContent.trim() === 'Add variation')
      ?.click();
    assert.deepEqual(
      groupsOf(part)[0]?.variations.map((v) => v.reference),
      [true, false, false],
    );
    part.find<HTMLInputElement>('#f-variation_groups-0-variations-2-reference').click();
    assert.deepEqual(
      groupsOf(part)[0]?.variations.map((v) => v.reference),
      [false, false, true],
    );
    // Removing the reference: the first variation left takes it, so the group keeps exactly one.
    buttons()
      .find((b) => /Remove variation\s+3 of group 1/.test(b.textContent))
      ?.click();
    assert.deepEqual(
      groupsOf(part)[0]?.variations.map((v) => [v.id, v.reference]),
      [
        ['v-orig', true],
        ['v-green', false],
      ],
    );
    assert.strictEqual(part.changes, 3);
    await expect(part.root).to.be.accessible();
  });

  it('names new variations in order and keeps the allocations at 100 %', async () => {
    const draft = draftOf(campaignOf(), 0);
    const group = must(draft.groups[0]);
    const part = await renderPart(draft, (kit) => variationGroupEditor(kit, draft, group, 0));
    const add = () =>
      must(
        [...part.root.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Add variation'),
      ).click();
    const legends = () =>
      [...part.root.querySelectorAll('.variation legend')].map((l) => l.textContent.trim());
    const shown = () =>
      group.variations.map(
        (_, k) => part.find<HTMLInputElement>(`#f-variation_groups-0-variations-${k}-allocation`).value,
      );
    // A full 50/50 test: the new variation is the third, and the group is split evenly.
    add();
    assert.deepEqual(
      groupsOf(part)[0]?.variations.map((v) => [v.name, v.allocation]),
      [
        ['Original', 34],
        ['Green', 33],
        ['Variation 2', 33],
      ],
    );
    assert.deepEqual(shown(), ['34', '33', '33']);
    // Its heading is its name, the one that is sent.
    assert.match(must(legends()[2]), /^Variation 2$/);
    assert.match(
      part.find('[data-testid=allocated-0]').textContent,
      /100 % of 100 %[\s\S]*split evenly \(34 \/ 33 \/ 33 %\)/,
    );
    // The flags grid has a column for it, its cell not filled in yet.
    assert.lengthOf(part.root.querySelectorAll('[data-testid=flag-row-0-0] td'), 3);
    assert.strictEqual(part.find('#flag-cell-0-0-2').getAttribute('aria-label'), 'btnText in Variation 2');
    // With room left, the next one takes what nobody has, and the others keep theirs.
    typeInto(part.find('#f-variation_groups-0-variations-0-allocation'), '30');
    typeInto(part.find('#f-variation_groups-0-variations-1-allocation'), '30');
    typeInto(part.find('#f-variation_groups-0-variations-2-allocation'), '20');
    add();
    assert.deepEqual(
      groupsOf(part)[0]?.variations.map((v) => [v.name, v.allocation]),
      [
        ['Original', 30],
        ['Green', 30],
        ['Variation 2', 20],
        ['Variation 3', 20],
      ],
    );
    assert.notMatch(part.find('[data-testid=allocated-0]').textContent, /split evenly/);
    // A name taken already is not given twice.
    typeInto(part.find('#f-variation_groups-0-variations-1-name'), 'Variation 4');
    typeInto(part.find('#f-variation_groups-0-variations-3-allocation'), '0');
    add();
    assert.strictEqual(groupsOf(part)[0]?.variations[4]?.name, 'Variation 5');
    assert.strictEqual(groupsOf(part)[0]?.variations[4]?.allocation, 20);
    assert.strictEqual(part.issues().size, 0);
    await expect(part.root).to.be.accessible();
  });

  it("shows the server's message next to its input and ties them for assistive technology", async () => {
    const part = await editorOf(new Map([['variation_groups[0].name', 'is already the name of group 2']]));
    const input = part.find('#f-variation_groups-0-name');
    assert.strictEqual(input.getAttribute('aria-invalid'), 'true');
    assert.strictEqual(input.getAttribute('aria-describedby'), 'f-variation_groups-0-name-error');
    assert.strictEqual(
      part.find('#f-variation_groups-0-name-error').textContent,
      'is already the name of group 2',
    );
    await expect(part.root).to.be.accessible();
  });
});
