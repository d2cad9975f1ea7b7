// targetingEditor(): who gets a group, as OR-ed targeting groups of AND-ed rules; the value input follows the
// operator and value type, lists are sent as lists, and "Target all users" replaces the rules with the one rule
// every visitor matches.
import { assert, expect } from '@open-wc/testing';
import { draftOf } from '../../../server/console/src/campaigns/campaign-draft.js';
import { keysDatalist, targetingEditor } from '../../../server/console/src/campaigns/targeting-editor.js';
import { html } from 'lit';
import { campaignOf, typeInto, must } from '../console-fixture.js';
import { groupsOf, renderPart } from './draft-harness.js';

const RULE = '#f-variation_groups-0-targeting-targeting_groups-0-targetings';

const editorOf = async () => {
  const draft = draftOf(campaignOf(), 0);
  const group = must(draft.groups[0]);
  group.targetingGroups = [];
  const part = await renderPart(draft, (kit) => html`${keysDatalist()}${targetingEditor(kit, group, 0)}`);
  return part;
};

const click = (root: HTMLElement, text: string): void => {
  const found = [...root.querySelectorAll('button')].find((b) => b.textContent.trim().startsWith(text));
  if (found === undefined) throw new Error(`no button ${text}`);
  found.click();
};

describe('targetingEditor()', () => {
  it('builds country = FR and plan in a number list, AND-ed in one targeting group', async () => {
    const part = await editorOf();
    assert.match(part.root.textContent, /No targeting: nobody gets this group/);
    click(part.root, 'Add targeting group');
    typeInto(part.find(`${RULE}-0-key`), 'country');
    typeInto(part.find(`${RULE}-0-value`), 'FR');
    click(part.root, 'Add targeting');
    typeInto(part.find(`${RULE}-1-key`), 'plan');
    typeInto(part.find(`${RULE}-1-operator`), 'EQUALS');
    typeInto(part.find(`${RULE}-1-kind`), 'number-list');
    typeInto(part.find(`${RULE}-1-value`), '1, 2\n3');
    assert.strictEqual(part.find(`${RULE}-1-value`).localName, 'textarea');
    assert.deepEqual(groupsOf(part)[0]?.targeting, {
      targeting_groups: [
        {
          targetings: [
            { key: 'country', operator: 'EQUALS', value: 'FR' },
            { key: 'plan', operator: 'EQUALS', value: [1, 2, 3] },
          ],
        },
      ],
    });
    await expect(part.root).to.be.accessible();
  });

  it('says when a number is not one, and targets all users on request', async () => {
    const part = await editorOf();
    click(part.root, 'Add targeting group');
    typeInto(part.find(`${RULE}-0-key`), 'age');
    typeInto(part.find(`${RULE}-0-operator`), 'GREATER_THAN');
    typeInto(part.find(`${RULE}-0-kind`), 'number');
    typeInto(part.find(`${RULE}-0-value`), 'eighteen');
    assert.strictEqual(part.find(`${RULE}-0-value`).getAttribute('aria-invalid'), 'true');
    assert.strictEqual(part.find(`${RULE}-0-value-error`).textContent, 'must be a number, such as 18 or 2.5');
    click(part.root, 'Target all users');
    assert.lengthOf(groupsOf(part)[0]?.targeting.targeting_groups ?? [], 1);
    assert.deepEqual(
      groupsOf(part)[0]?.targeting.targeting_groups[0]?.targetings.map((t) => t.key),
      ['fs_all_users'],
    );
    assert.match(part.root.textContent, /Matches every visitor: no value needed/);
    assert.strictEqual(part.issues().size, 0);
    await expect(part.root).to.be.accessible();
  });
});
