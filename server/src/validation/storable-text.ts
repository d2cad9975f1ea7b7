// Text the store keeps must be valid Unicode (PROTOCOL.md §2.1): PostgreSQL refuses U+0000 in text and JSON,
// and a lone UTF-16 surrogate has no UTF-8 form. Such input is the client's mistake, so it is refused with a
// 400 naming the field before it can reach the database and come back as a 500.

// With the `u` flag a surrogate pair is one code point, so this matches lone surrogates only.
const LONE_SURROGATE = /\p{Surrogate}/u;

/** True when `text` can be stored: no U+0000 and no lone surrogate. */
export const isStorableText = (text: string): boolean =>
  !text.includes('\u0000') && !LONE_SURROGATE.test(text);

/** What to say of a text that is not storable. */
export const STORABLE_TEXT_RULE = 'must not hold U+0000 or a lone surrogate';
