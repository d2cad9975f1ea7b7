// analysisFields(): the report's settings in the editor: a primary goal (type, then the name, suggested from the
// goals the report has seen), the method, alpha and the expected visitors; a value out of the server's limits is
// said at once, next to its input.
import { assert, expect } from '@open-wc/testing';
import { analysisFields } from '../../../server/console/src/campaigns/analysis-fields.js';
import { draftOf } from '../../../server/console/src/campaigns/campaign-draft.js';
import { campaignOf, typeInto } from '../console-fixture.js';
import { renderPart } from './draft-harness.js';

const editorOf = async () => {
  const draft = draftOf(campaignOf(), 0);
  const goals = { event: ['add_to_cart', 'sign_up'], transaction: ['shop'] };
  return renderPart(draft, (kit) => analysisFields(kit, draft.analysis, goals));
};

describe('analysisFields()', () => {
  it('sets an event goal, the fixed method and a stricter alpha', async () => {
    const part = await editorOf();
    await expect(part.root).to.be.accessible();
    assert.strictEqual(part.root.querySelector('#f-analysis-primary_goal-name'), null);
    typeInto(part.find('#f-analysis-primary_goal-type'), 'event');
    const name = part.find<HTMLInputElement>('#f-analysis-primary_goal-name');
    assert.deepEqual(
      [...part.root.querySelectorAll('#goals-seen option')].map((o) => o.getAttribute('value')),
      ['add_to_cart', 'sign_up'],
    );
    typeInto(name, 'add_to_cart');
    typeInto(part.find('#f-analysis-method'), 'fixed');
    typeInto(part.find('#f-analysis-alpha'), '0.01');
    typeInto(part.find('#f-analysis-expected_visitors'), '20000');
    assert.deepEqual(part.body().analysis, {
      primary_goal: { type: 'event', name: 'add_to_cart' },
      method: 'fixed',
      alpha: 0.01,
      expected_visitors: 20000,
    });
    await expect(part.root).to.be.accessible();
  });

  it('refuses an alpha and a visitor count outside the limits, next to their inputs', async () => {
    const part = await editorOf();
    typeInto(part.find('#f-analysis-alpha'), '0.5');
    typeInto(part.find('#f-analysis-expected_visitors'), '99');
    const alpha = part.find('#f-analysis-alpha');
    assert.strictEqual(alpha.getAttribute('aria-invalid'), 'true');
    // PROTOCOL.md §14.6: alpha in [0.001, 0.2], expected visitors a whole number in [100, 100 000 000].
    assert.match(part.find('#f-analysis-alpha-error').textContent, /from 0\.001 to 0\.2/);
    assert.match(part.find('#f-analysis-expected_visitors-error').textContent, /from 100 to 100 000 000/);
    assert.deepEqual([...part.issues().keys()].sort(), ['analysis.alpha', 'analysis.expected_visitors']);
    await expect(part.root).to.be.accessible();
  });
});
