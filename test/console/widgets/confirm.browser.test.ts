// confirmAction(): a native modal dialog that resolves true only on its confirm button, false on Cancel or Escape,
// and leaves nothing behind; the question and its detail name the dialog for assistive technology.
import { assert, expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { confirmAction } from '../../../server/console/src/widgets/confirm.js';
import { answerConfirm, until, must } from '../console-fixture.js';

const open = (): HTMLDialogElement | null => document.querySelector('dialog.console-confirm');

describe('confirmAction()', () => {
  it('resolves true on its confirm button, with the focus first on Cancel', async () => {
    const answer = confirmAction(
      'Revoke Nightly job?',
      'Its tokens stop working at once.',
      'Revoke the access',
    );
    await until(() => open() !== null, { what: 'the open dialog' });
    const dialog = must(open());
    assert.strictEqual(dialog.open, true);
    assert.strictEqual(document.activeElement?.textContent, 'Cancel');
    assert.strictEqual(dialog.querySelector('#console-confirm-title')?.textContent, 'Revoke Nightly job?');
    await expect(dialog).to.be.accessible();
    await answerConfirm('confirm');
    assert.strictEqual(await answer, true);
    assert.strictEqual(open(), null);
  });

  it('resolves false on Cancel and on Escape', async () => {
    const cancelled = confirmAction(
      'Delete “Buy button”?',
      'It leaves decisions at once.',
      'Delete campaign',
    );
    await answerConfirm('cancel');
    assert.strictEqual(await cancelled, false);

    const escaped = confirmAction('Turn panic mode on?', 'Every visitor gets the defaults.', 'Turn it on');
    await until(() => open() !== null, { what: 'the open dialog' });
    await sendKeys({ press: 'Escape' });
    assert.strictEqual(await escaped, false);
    assert.strictEqual(open(), null);
  });
});
