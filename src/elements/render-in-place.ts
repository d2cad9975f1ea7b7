// How <feature-flag> swaps a variation's content for another's without replacing what both have: the new
// nodes are matched against those shown (same kind and tag, and the same id, in order), and a match is updated
// (attributes, text, children) instead of replaced. What stays keeps its state: an <input> its focus and typed
// value, a <video> its position. Custom elements are kept whole (their attributes updated): their children are
// theirs to render, as a nested <feature-flag>'s are.

const same = (a: Node, b: Node): boolean =>
  a.nodeName === b.nodeName && (!(a instanceof Element) || a.id === (b as Element).id);

/**
 * Makes `shown`, the last children of `parent`, look like `next` (nodes not in the document yet), keeping the
 * shown nodes that match; returns the nodes now shown, in order.
 */
export const renderInPlace = (parent: Node, shown: readonly Node[], next: readonly Node[]): Node[] => {
  const unmatched = [...shown];
  const result = next.map((node) => {
    const index = unmatched.findIndex((old) => same(old, node));
    const old = unmatched.splice(index, index < 0 ? 0 : 1)[0];
    if (old === undefined) return node;
    if (old instanceof Element && node instanceof Element) {
      for (const name of old.getAttributeNames()) if (!node.hasAttribute(name)) old.removeAttribute(name);
      for (const { name, value } of node.attributes)
        if (old.getAttribute(name) !== value) old.setAttribute(name, value);
      if (!old.localName.includes('-')) renderInPlace(old, [...old.childNodes], [...node.childNodes]);
    } else if (old.nodeValue !== node.nodeValue) old.nodeValue = node.nodeValue;
    return old;
  });
  for (const old of unmatched) old.parentNode?.removeChild(old);
  // From the end, so a node already in its place is never moved (moving a focused node would blur it).
  let after: Node | null = null;
  for (const node of [...result].reverse()) {
    if (node.parentNode !== parent || node.nextSibling !== after) parent.insertBefore(node, after);
    after = node;
  }
  return result;
};
