// Text the store keeps must be valid Unicode (PROTOCOL.md §2.1): PostgreSQL refuses U+0000 in text and JSON,
// and a lone UTF-16 surrogate has no UTF-8 form. Such input is the client's mistake, so it is refused with a
// 400 naming the field before it can reach the database and come back as a 500.

// Any surrogate code unit: text without one (nearly all of it) needs no closer look.
const SURROGATE_UNIT = /[\ud800-\udfff]/;
// With the `u` flag a surrogate pair is one code point, so this matches lone surrogates only.
const LONE_SURROGATE = /\p{Surrogate}/u;

/** True when `text` can be stored: no U+0000 and no lone surrogate (emoji and other pairs are fine). */
export const isStorableText = (text: string): boolean =>
  !text.includes('\u0000') && (!SURROGATE_UNIT.test(text) || !LONE_SURROGATE.test(text));

/** What to say of a text that is not storable. */
export const STORABLE_TEXT_RULE = 'must not hold U+0000 or a lone surrogate';

/** At most this many characters of a client's key are repeated in a message, so answers stay small. */
const SHOWN_KEY_LENGTH = 64;

/**
 * `key` as a path segment in a message: cut to 64 characters (never inside a surrogate pair) with `…`, so
 * that a 10 KB key does not make a 10 KB answer.
 */
export const shownKey = (key: string): string => {
  if (key.length <= SHOWN_KEY_LENGTH) return key;
  const end = /[\ud800-\udbff]/.test(key.charAt(SHOWN_KEY_LENGTH - 1))
    ? SHOWN_KEY_LENGTH - 1
    : SHOWN_KEY_LENGTH;
  return `${key.slice(0, end)}…`;
};
