// The token routes' limits (PROTOCOL.md §13.7), over HTTP with client addresses given through X-Forwarded-For
// from a trusted proxy (TRUST_PROXY): the request rate per IP, brute force on one (IP, client id) pair
// locking that pair with doubling waits, a locked pair not locking the same client from elsewhere, too many
// failures from one IP locking that IP, success resetting the pair, and the check rate.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TokenRateLimits } from '../../../server/src/auth/rate-limits.js';
import { createAccess } from '../../../server/src/auth/create-access.js';
import { openFreshPgliteStore } from '../template-data-dir.js';
import type { Store } from '../../../server/src/store/store.js';
import { checkoutCampaign, seedEnvironment, startApp, type Running } from '../support.js';

let store: Store;
let server: Running;
let accountId = '';
let clientId = '';
let clientSecret = '';
let otherClientId = '';
let otherSecret = '';
let clock = 1_800_000_000_000;

before(async () => {
  store = await openFreshPgliteStore();
  accountId = (await seedEnvironment(store, [checkoutCampaign()])).accountId;
  const one = await createAccess(store, { accountId, name: 'one', actions: ['campaign.list'] });
  const two = await createAccess(store, { accountId, name: 'two', actions: ['campaign.list'] });
  clientId = one.access.clientId;
  clientSecret = one.clientSecret;
  otherClientId = two.access.clientId;
  otherSecret = two.clientSecret;
  server = await startApp(store, {
    trustProxy: '127.0.0.1',
    now: () => clock,
    tokenLimits: { tokenRequestsPerMinute: 12, tokenChecksPerMinute: 3, pairFailures: 3, ipFailures: 6 },
  });
});
after(async () => {
  await server.close();
  await store.close();
});

const request = (ip: string, id: string, secret: string) =>
  fetch(`${server.url}/oauth/${accountId}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: id,
      client_secret: secret,
    }).toString(),
  });

const statusOf = async (res: Promise<Response>) => {
  const answer = await res;
  await answer.arrayBuffer();
  return answer.status;
};

void describe('token request limits per client address', () => {
  void it('a pair locks after its failures; the same client from elsewhere, and another client from here, go on', async () => {
    const ip = '203.0.113.1';
    for (let i = 0; i < 3; i++) assert.equal(await statusOf(request(ip, clientId, 'ffs_wrong')), 401);
    const locked = await request(ip, clientId, clientSecret);
    assert.equal(locked.status, 429, 'even the right secret waits');
    assert.equal(locked.headers.get('retry-after'), '1');
    assert.deepEqual(await locked.json(), {
      error: 'slow_down',
      error_description: 'Too many requests from this address: retry in 1 s.',
    });
    assert.equal(
      await statusOf(request('203.0.113.2', clientId, clientSecret)),
      200,
      'the client is not locked elsewhere',
    );
    assert.equal(
      await statusOf(request(ip, otherClientId, otherSecret)),
      200,
      'another client from this address',
    );
    // The wait doubles with each further failure once it has passed.
    clock += 1000;
    assert.equal(await statusOf(request(ip, clientId, 'ffs_wrong')), 401);
    const again = await request(ip, clientId, clientSecret);
    assert.equal(again.status, 429);
    assert.equal(again.headers.get('retry-after'), '2');
    await again.arrayBuffer();
    clock += 2000;
    assert.equal(await statusOf(request(ip, clientId, clientSecret)), 200, 'a success after the wait');
    assert.equal(await statusOf(request(ip, clientId, 'ffs_wrong')), 401, 'and the pair starts afresh');
    assert.equal(await statusOf(request(ip, clientId, clientSecret)), 200);
    clock += 60_000;
  });

  void it('an address that fails across many client ids locks for every client', async () => {
    const ip = '203.0.113.9';
    for (let i = 0; i < 6; i++) assert.equal(await statusOf(request(ip, `ffc_guess${i}`, 'ffs_x')), 401);
    assert.equal(await statusOf(request(ip, otherClientId, otherSecret)), 429);
    assert.equal(await statusOf(request('203.0.113.10', otherClientId, otherSecret)), 200);
    clock += 60_000;
  });

  void it('the request rate per address: the 13th request of a minute waits', async () => {
    const ip = '198.51.100.7';
    for (let i = 0; i < 12; i++) assert.equal(await statusOf(request(ip, otherClientId, otherSecret)), 200);
    const over = await request(ip, otherClientId, otherSecret);
    assert.equal(over.status, 429);
    assert.equal(over.headers.get('retry-after'), '60');
    await over.arrayBuffer();
    clock += 60_000;
    assert.equal(await statusOf(request(ip, otherClientId, otherSecret)), 200, 'a new minute');
  });

  void it('the check rate per address', async () => {
    const check = () =>
      fetch(`${server.url}/oauth/token?access_token=fft_x`, { headers: { 'x-forwarded-for': '192.0.2.4' } });
    for (let i = 0; i < 3; i++) assert.equal(await statusOf(check()), 200);
    assert.equal(await statusOf(check()), 429);
  });
});

void describe('lock waits', () => {
  void it('double from the first wait up to the longest, then stay there', () => {
    let now = 0;
    const limits = new TokenRateLimits(
      { pairFailures: 1, ipFailures: 1000, firstLockMs: 1000, maxLockMs: 5000 },
      () => now,
    );
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      limits.failed('ip', 'client');
      const wait = limits.lockedFor('ip', 'client') ?? 0;
      waits.push(wait);
      now += wait * 1000;
      assert.equal(limits.lockedFor('ip', 'client'), null, 'free once the wait has passed');
    }
    assert.deepEqual(waits, [1, 2, 4, 5, 5]);
  });

  void it('forget failures older than the window', () => {
    let now = 0;
    const limits = new TokenRateLimits({ pairFailures: 2, failureWindowMs: 10_000 }, () => now);
    limits.failed('ip', 'client');
    now += 10_000;
    limits.failed('ip', 'client');
    assert.equal(limits.lockedFor('ip', 'client'), null);
    limits.failed('ip', 'client');
    assert.equal(limits.lockedFor('ip', 'client'), 1);
  });
});
