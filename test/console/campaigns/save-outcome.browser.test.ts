// savedMessage(): what a save tells the user the stored campaign now does for visitors, by its state. An
// interrupted campaign is never active again (PROTOCOL.md §13.5), so its message must not promise that.
import { assert } from '@open-wc/testing';
import { savedMessage } from '../../../server/console/src/campaigns/save-outcome.js';
import { campaignOf } from '../console-fixture.js';

describe('savedMessage()', () => {
  it('says when visitors get what was saved, for each state', () => {
    const campaign = campaignOf();
    assert.match(
      savedMessage({ ...campaign, state: 'active' }),
      /Live now: visitors get this at their next decision/,
    );
    assert.match(
      savedMessage({ ...campaign, state: 'paused' }),
      /It is paused: visitors get it once it is active/,
    );
    const interrupted = savedMessage({ ...campaign, state: 'interrupted' });
    assert.notInclude(interrupted, 'once it is active', 'an interrupted campaign is never active again');
    assert.include(interrupted, 'It is interrupted: visitors never get it');
  });
});
