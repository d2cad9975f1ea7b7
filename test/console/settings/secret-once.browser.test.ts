// <secret-once>: credentials the server gives once, each with a copy button, the focus on the panel's heading so a
// keyboard or screen reader user lands on them, and a button that asks the owner to forget them.
import { assert, expect, fixture, oneEvent } from '@open-wc/testing';
import { html } from 'lit';
import '../../../server/console/src/settings/secret-once.js';
import type { SecretOnce } from '../../../server/console/src/settings/secret-once.js';
import { inShadow } from '../console-fixture.js';

describe('<secret-once>', () => {
  it('shows each value with its copy button, takes the focus, and asks to be dismissed', async () => {
    const el = await fixture<SecretOnce>(
      html`<secret-once
        heading="Credentials of checkout-bot"
        .items=${[
          { label: 'Client id', copyLabel: 'client id', testId: 'client-id', value: 'client-123' },
          {
            label: 'Client secret',
            copyLabel: 'client secret',
            testId: 'client-secret',
            value: 'secret-456',
          },
        ]}
      ></secret-once>`,
    );
    await expect(el).to.be.accessible();
    assert.strictEqual(el.shadowRoot?.activeElement?.id, 'secret-title');
    assert.strictEqual(inShadow(el, '[data-testid=client-secret]').textContent, 'secret-456');
    assert.deepEqual(
      [...(el.shadowRoot?.querySelectorAll('copy-button') ?? [])].map((b) => [b.value, b.label]),
      [
        ['client-123', 'client id'],
        ['secret-456', 'client secret'],
      ],
    );
    const dismissed = oneEvent(el, 'secret-dismissed');
    inShadow<HTMLButtonElement>(el, 'section > button').click();
    await dismissed;
  });
});
