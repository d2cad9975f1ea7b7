// <token-curl>: the token request of a new access as one shell command, each value one shell word whatever it
// holds, and a copy button that copies exactly what is shown.
import { assert, expect, fixture } from '@open-wc/testing';
import { html } from 'lit';
import '../../../server/console/src/settings/token-curl.js';
import { shellQuote, tokenCurl, type TokenCurl } from '../../../server/console/src/settings/token-curl.js';
import { inShadow } from '../console-fixture.js';

describe('<token-curl>', () => {
  it('quotes each value as one shell word, single quotes included', () => {
    assert.strictEqual(shellQuote('ffs_abc-_9'), "'ffs_abc-_9'");
    assert.strictEqual(shellQuote("it's $HOME"), "'it'\\''s $HOME'");
    const command = tokenCurl({
      origin: 'https://flags.example.com:8443',
      accountId: 'acc/1',
      clientId: 'ffc_x',
      clientSecret: "ffs_'y",
    });
    assert.strictEqual(
      command,
      [
        "curl 'https://flags.example.com:8443/oauth/acc%2F1/token' \\",
        '  -d grant_type=client_credentials \\',
        "  --data-urlencode 'client_id=ffc_x' \\",
        "  --data-urlencode 'client_secret=ffs_'\\''y'",
      ].join('\n'),
    );
  });

  it('shows the command and copies the same text', async () => {
    const request = {
      origin: 'http://127.0.0.1:8080',
      accountId: 'acc-1',
      clientId: 'ffc_a',
      clientSecret: 'ffs_b',
    };
    const el = await fixture<TokenCurl>(html`<token-curl .request=${request}></token-curl>`);
    await expect(el).to.be.accessible();
    const shown = inShadow(el, '[data-testid=token-curl]').textContent;
    assert.strictEqual(shown, tokenCurl(request));
    assert.strictEqual((inShadow(el, 'copy-button') as unknown as { value: string }).value, shown);
  });
});
