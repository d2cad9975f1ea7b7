// flagValuesEditor(): a variation's flags as key, type and value rows; values are typed (a number is sent as a
// number), a change of type keeps what can be kept, and a value that does not parse is said at once.
import { assert, expect } from '@open-wc/testing';
import { draftOf } from '../../../server/console/src/campaigns/campaign-draft.js';
import { flagValuesEditor } from '../../../server/console/src/campaigns/flag-values-editor.js';
import { campaignOf, typeInto, must } from '../console-fixture.js';
import { groupsOf, renderPart } from './draft-harness.js';

const VALUE = 'variation_groups[0].variations[1].modifications.value';

const editorOf = async () => {
  const draft = draftOf(campaignOf(), 0);
  const variation = must(draft.groups[0]?.variations[1]);
  return renderPart(draft, (kit) => flagValuesEditor(kit, variation, 0, 1));
};

const button = (root: HTMLElement, text: RegExp): HTMLButtonElement => {
  const found = [...root.querySelectorAll('button')].find((b) => text.test(b.textContent.trim()));
  if (found === undefined) throw new Error(`no button ${String(text)}`);
  return found;
};

describe('flagValuesEditor()', () => {
  it('adds a typed flag beside the stored one', async () => {
    const part = await editorOf();
    await expect(part.root).to.be.accessible();
    assert.strictEqual(part.find<HTMLInputElement>('[data-testid=flag-0-1-0] input').value, 'btnText');
    button(part.root, /^Add flag$/).click();
    const row = part.find('[data-testid=flag-0-1-1]');
    typeInto(must(row.querySelector('input')), 'discount');
    typeInto(must(row.querySelector('select')), 'number');
    typeInto(must(row.querySelectorAll('input')[1]), '10');
    assert.deepEqual(groupsOf(part)[0]?.variations[1]?.modifications.value, {
      btnText: 'Buy now',
      discount: 10,
    });
    await expect(part.root).to.be.accessible();
  });

  it('says at once when a value is not of its type, and removes a flag', async () => {
    const part = await editorOf();
    const row = part.find('[data-testid=flag-0-1-0]');
    typeInto(must(row.querySelector('select')), 'number');
    typeInto(must(part.find('[data-testid=flag-0-1-0]').querySelectorAll('input')[1]), 'ten');
    const problem = part.issues().get(`${VALUE}.btnText`);
    assert.isString(problem);
    const value = must(part.find('[data-testid=flag-0-1-0]').querySelectorAll('input')[1]);
    assert.strictEqual(value.getAttribute('aria-invalid'), 'true');
    assert.strictEqual(
      part.root.querySelector(`#${value.getAttribute('aria-describedby')?.split(' ').pop()}`)?.textContent,
      problem,
    );
    button(part.root, /Remove flag\s+btnText/).click();
    assert.deepEqual(groupsOf(part)[0]?.variations[1]?.modifications.value, {});
    assert.match(part.root.textContent, /No flag yet: this variation changes nothing/);
    await expect(part.root).to.be.accessible();
  });
});
