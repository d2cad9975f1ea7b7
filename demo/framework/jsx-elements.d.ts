// The three tags as JSX elements. React 19 sets a prop as a property when the element has one (`mode`,
// `consent`, `context`, `default`, `type`…), else as an attribute (`env-id`, `api-key`), and turns `on<event>`
// props into listeners of <event>, so these types list exactly that.
import type { HTMLAttributes, RefAttributes } from 'react';
import type {
  ExposureDetail,
  FeatureChangeDetail,
  FeatureErrorDetail,
  FeatureFlag,
  FeatureFlagsChangeDetail,
  FeatureHit,
  FeatureProvider,
  FeatureReadyDetail,
  FeatureStatusDetail,
} from '../../src/elements/index.js';

type Listener<D> = (event: CustomEvent<D>) => void;

/** What every tag takes: the usual HTML attributes, a ref, and the error event. */
type Tag<E> = HTMLAttributes<E> & RefAttributes<E> & { 'onfeature-error'?: Listener<FeatureErrorDetail> };

interface ProviderProps extends Tag<FeatureProvider> {
  'env-id'?: string | undefined;
  'api-key'?: string | undefined;
  'api-url'?: string | undefined;
  mode?: 'api' | 'bucketing';
  'visitor-id'?: string | undefined;
  consent?: boolean;
  authenticated?: boolean;
  context?: Readonly<Record<string, string | number | boolean>>;
  timeout?: number;
  'polling-interval'?: number;
  'log-level'?: string;
  live?: 'on' | 'off';
  'cache-mode'?: 'local-cache-first' | 'network-first' | 'disabled';
  'onfeature-ready'?: Listener<FeatureReadyDetail>;
  'onfeature-status'?: Listener<FeatureStatusDetail>;
  'onfeature-change'?: Listener<FeatureChangeDetail>;
  'onfeature-flags-change'?: Listener<FeatureFlagsChangeDetail>;
  'onfeature-exposed'?: Listener<ExposureDetail>;
}

/**
 * `<feature-flag>` in JSX. There is no `key`: React keeps that prop for itself and never gives it to the
 * element, so a flag's key has to be set another way (the `Flag` component sets the attribute from a ref).
 */
interface FlagProps extends Tag<FeatureFlag> {
  default?: string;
  type?: 'string' | 'boolean' | 'number' | 'json';
  exposure?: 'visible' | 'render' | 'manual';
  exposureDelay?: number;
  'onfeature-change'?: Listener<FeatureChangeDetail>;
  'onfeature-exposed'?: Listener<ExposureDetail>;
}

interface HitProps extends Tag<FeatureHit> {
  type?: 'screen' | 'event';
  location?: string;
  action?: string;
  category?: 'action_tracking' | 'user_engagement';
  label?: string;
  value?: number;
  on?: string;
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'feature-provider': ProviderProps;
      'feature-flag': FlagProps;
      'feature-hit': HitProps;
    }
  }
}
