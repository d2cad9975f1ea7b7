// The page's own storage for providers: the random id of a visitor the page did not name. It is made without
// crypto.randomUUID, which pages outside secure contexts (plain http: from another machine) do not have.
import { assert } from '@open-wc/testing';
import { pageVisitorId } from '../../src/elements/page-storage.js';

describe('page visitor id', () => {
  const saved = Object.getOwnPropertyDescriptor(Crypto.prototype, 'randomUUID');
  afterEach(() => {
    if (saved !== undefined) Object.defineProperty(Crypto.prototype, 'randomUUID', saved);
    localStorage.clear();
  });

  it('is made without crypto.randomUUID, as in an insecure context, and kept per environment', () => {
    Reflect.deleteProperty(Crypto.prototype, 'randomUUID');
    assert.equal(typeof (crypto as { randomUUID?: unknown }).randomUUID, 'undefined');
    const first = pageVisitorId('env-a');
    assert.match(first, /^[0-9a-f]{32}$/);
    assert.equal(pageVisitorId('env-a'), first, 'the same id on the next page view');
    assert.equal(localStorage.getItem('feature-ts:visitor:env-a'), first);
    const other = pageVisitorId('env-b');
    assert.match(other, /^[0-9a-f]{32}$/);
    assert.notEqual(other, first, 'each environment has its own random id');
  });

  it('still gives an id for the page view when storage throws', () => {
    const setItem = Object.getOwnPropertyDescriptor(Storage.prototype, 'setItem');
    Object.defineProperty(Storage.prototype, 'setItem', {
      configurable: true,
      value: () => {
        throw new DOMException('quota', 'QuotaExceededError');
      },
    });
    try {
      assert.match(pageVisitorId('env-c'), /^[0-9a-f]{32}$/);
    } finally {
      if (setItem !== undefined) Object.defineProperty(Storage.prototype, 'setItem', setItem);
    }
  });
});
