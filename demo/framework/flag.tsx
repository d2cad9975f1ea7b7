import { useCallback, type JSX } from 'react';
import type { FeatureFlag } from '../../src/elements/index.js';

/** `<feature-flag>` props, and `flagKey` for its `key` attribute. */
export type FlagProps = Omit<JSX.IntrinsicElements['feature-flag'], 'ref'> & { flagKey: string };

/**
 * `<feature-flag key={flagKey}>`: React keeps a `key` prop for itself and never sets it on the element, so the
 * attribute is set from a ref. Refs attach in the same commit as the element is inserted, before the element
 * renders (it batches its update into a microtask), so it never shows the wrong flag.
 */
export const Flag = ({ flagKey, ...props }: FlagProps): JSX.Element => {
  const setKey = useCallback(
    (element: FeatureFlag | null) => element?.setAttribute('key', flagKey),
    [flagKey],
  );
  return <feature-flag ref={setKey} {...props} />;
};
