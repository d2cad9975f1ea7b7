// How the elements declare their reactive properties to lit: each element names them once, in a
// `static properties` object typed by `PropertiesOf<Element>`, beside `declare` fields that give their types.
// A key of one that the other lacks, or a converter of the wrong type, does not compile.
import type { PropertyDeclaration } from '@lit/reactive-element';

/**
 * The `static properties` of element `E`: only fields of `E`, each declared for its own type (checked with
 * `satisfies`, so the object keeps its literal type).
 */
export type PropertiesOf<E> = { readonly [K in keyof E]?: PropertyDeclaration<E[K]> };

/**
 * A text attribute named `attribute`: the property is the attribute's text, null when absent, and setting it
 * sets the attribute (lit reflects it at the next update). The initial null is a default, never written.
 */
export const textProperty = (attribute: string): PropertyDeclaration<string | null> => ({
  attribute,
  reflect: true,
  useDefault: true,
});

/** A presence attribute (`consent`): true when present; setting it adds or removes the attribute. */
export const booleanProperty = (attribute: string): PropertyDeclaration<boolean> => ({
  attribute,
  type: Boolean,
  reflect: true,
  useDefault: true,
});

const toNumber = (text: string | null): number | undefined =>
  text === null ? undefined : text.trim() === '' ? Number.NaN : Number(text);

/**
 * What a number property holds, read as its attribute would be: a page or a framework may set the property to
 * text (React sets a property whenever the element has one: `timeout="800"` in JSX arrives as "800").
 */
export const numberOf = (value: unknown): number | undefined =>
  typeof value === 'string' ? toNumber(value) : typeof value === 'number' ? value : undefined;

/**
 * A number attribute: undefined when absent, NaN when blank (lit's own Number converter reads a blank as 0,
 * which would hide a mistake the element reports), else `Number(text)`.
 */
export const numberProperty = (attribute: string): PropertyDeclaration<number | undefined> => ({
  attribute,
  reflect: true,
  converter: { fromAttribute: toNumber },
});
