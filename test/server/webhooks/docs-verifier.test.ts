// The signature verifier docs/teams.md gives receivers (issue 36), run as written: it accepts what the server
// signs, and refuses a replay (the same delivery again, or an old signature), a wrong secret and a changed body.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { signWebhook } from '../../../server/src/webhooks/webhook-signature.js';

const docs = readFileSync(new URL('../../../docs/teams.md', import.meta.url), 'utf8');
const code = /<!-- webhook-verifier -->\s*```js\n([\s\S]*?)```\s*<!-- \/webhook-verifier -->/.exec(docs)?.[1];

type Verify = (secret: string, body: string, headers: Record<string, string>, now?: number) => boolean;

void describe("docs/teams.md's webhook verifier", () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-verifier-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('accepts a delivery once and refuses replays, old signatures, other secrets and changed bodies', async () => {
    assert.ok(code !== undefined, 'the snippet is in docs/teams.md between its markers');
    const file = join(dir, 'verifier.mjs');
    writeFileSync(file, code);
    const { verifyWebhook } = (await import(pathToFileURL(file).href)) as { verifyWebhook: Verify };
    const secret = 'whsec_test';
    const body = '{"id":"e1","type":"environment.panic_changed","data":{"panic":true}}';
    const now = 1_800_000_000;
    const headers = (id: string, at = now, key = secret, signed = body): Record<string, string> => ({
      'feature-signature': signWebhook(key, signed, at),
      'feature-webhook-id': id,
    });
    assert.equal(verifyWebhook(secret, body, headers('d1'), now), true, 'what the server signs');
    assert.equal(verifyWebhook(secret, body, headers('d1'), now + 10), false, 'the same delivery replayed');
    assert.equal(verifyWebhook(secret, body, headers('d2', now - 301), now), false, 'a signature 5 min old');
    assert.equal(
      verifyWebhook(secret, body, headers('d3', now, 'whsec_other'), now),
      false,
      'another secret',
    );
    assert.equal(verifyWebhook(secret, `${body} `, headers('d4'), now), false, 'a changed body');
    assert.equal(verifyWebhook(secret, body, { 'feature-webhook-id': 'd5' }, now), false, 'no signature');
    assert.equal(verifyWebhook(secret, body, headers('d6'), now), true, 'the next delivery');
  });
});
