// The signature verifier docs/teams.md gives receivers (issue 36), run as written: it accepts what the server
// signs; tells a delivery already handled (the server's retry after a lost answer, or a replay at once) apart,
// so the receiver answers it 2xx without handling it again; and refuses an old signature, a wrong secret and a
// changed body.
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { signWebhook } from '../../../server/src/webhooks/webhook-signature.js';
import { readmeExample } from '../../support/wtr-readme-examples.js';

const code = readmeExample('webhook-verifier', new URL('../../../docs/teams.md', import.meta.url));

type Verify = (
  secret: string,
  body: string,
  headers: Record<string, string>,
  now?: number,
) => 'new' | 'seen' | 'refused';

void describe("docs/teams.md's webhook verifier", () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-verifier-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('handles a delivery once, tells its retries apart, and refuses old signatures, other secrets and changed bodies', async () => {
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
    assert.equal(verifyWebhook(secret, body, headers('d1'), now), 'new', 'what the server signs');
    assert.equal(verifyWebhook(secret, body, headers('d1'), now + 10), 'seen', 'the same delivery replayed');
    assert.equal(
      verifyWebhook(secret, body, headers('d1', now + 40), now + 40),
      'seen',
      "the server's retry (signed anew) of a delivery whose 2xx it did not get: answered 2xx, not handled again",
    );
    assert.equal(
      verifyWebhook(secret, body, headers('d2', now - 301), now),
      'refused',
      'a signature 5 min old',
    );
    assert.equal(
      verifyWebhook(secret, body, headers('d3', now, 'whsec_other'), now),
      'refused',
      'another secret',
    );
    assert.equal(verifyWebhook(secret, `${body} `, headers('d4'), now), 'refused', 'a changed body');
    assert.equal(verifyWebhook(secret, body, { 'feature-webhook-id': 'd5' }, now), 'refused', 'no signature');
    assert.equal(verifyWebhook(secret, body, headers('d6'), now), 'new', 'the next delivery');
  });
});
