// <copy-button>: a click writes the value to the clipboard and says so in its status region; where the clipboard
// refuses (no secure context, no permission), it says to copy by hand instead.
import { assert, expect, fixture } from '@open-wc/testing';
import { html } from 'lit';
import '../../../server/console/src/widgets/copy-button.js';
import type { CopyButton } from '../../../server/console/src/widgets/copy-button.js';
import { inShadow, until } from '../console-fixture.js';

describe('<copy-button>', () => {
  const original = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
  let written: string[] = [];
  let refuse = false;

  beforeEach(() => {
    written = [];
    refuse = false;
    // A double of the clipboard: headless Chromium has no user gesture to grant the real one.
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: {
        writeText: (text: string) =>
          refuse
            ? Promise.reject(new DOMException('denied', 'NotAllowedError'))
            : (written.push(text), Promise.resolve()),
      },
    });
  });
  afterEach(() => {
    if (original !== undefined) Object.defineProperty(navigator, 'clipboard', original);
    else delete (navigator as { clipboard?: unknown }).clipboard;
  });

  it('copies its value and tells screen readers what was copied', async () => {
    const el = await fixture<CopyButton>(
      html`<copy-button .value=${'key-123'} label="API key"></copy-button>`,
    );
    await expect(el).to.be.accessible();
    inShadow<HTMLButtonElement>(el, 'button').click();
    await until(() => el.copied !== '', { what: 'the copied state' });
    await el.updateComplete;
    assert.deepEqual(written, ['key-123']);
    assert.strictEqual(inShadow(el, '[role=status]').textContent.trim(), 'API key: Copied');
    assert.match(inShadow(el, 'button').textContent, /Copied\s+API key/);
  });

  it('says to copy by hand when the clipboard refuses', async () => {
    refuse = true;
    const el = await fixture<CopyButton>(
      html`<copy-button .value=${'secret'} label="client secret"></copy-button>`,
    );
    inShadow<HTMLButtonElement>(el, 'button').click();
    await until(() => el.copied !== '', { what: 'the copied state' });
    await el.updateComplete;
    assert.deepEqual(written, []);
    assert.strictEqual(
      inShadow(el, '[role=status]').textContent.trim(),
      'client secret: Select and copy it by hand',
    );
    await expect(el).to.be.accessible();
  });
});
