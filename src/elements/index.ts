// The element classes and their types, without registering any tag (import `define.js`, or one
// `define-feature-*.js`, to register them).
export { FeatureProvider } from './feature-provider.js';
export { FeatureFlag, type ExposureMode } from './feature-flag.js';
export { FeatureHit } from './feature-hit.js';
export { featureClientContext, type ExposureDetail, type FeatureClient } from './client-context.js';
export { ClientController, type ClientAtom } from './client-controller.js';
export { StoreController } from './store-controller.js';
export type {
  FeatureChangeDetail,
  FeatureErrorDetail,
  FeatureErrorReason,
  FeatureEventMap,
  FeatureFlagsChangeDetail,
  FeatureReadyDetail,
  FeatureStatusDetail,
} from './events.js';
export type { FlagType } from './flag-value.js';
