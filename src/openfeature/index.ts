// `feature-ts/openfeature`: OpenFeature providers over the SDK (PROTOCOL.md §18.1). @openfeature/web-sdk and
// @openfeature/server-sdk are optional peer dependencies; this entry imports only their types, and the SDK
// itself through the package's main entry (`feature-ts`), so the providers share the application's SDK.
export { FeatureWebProvider } from './web-provider.js';
export { FeatureServerProvider, type FeatureServerProviderOptions } from './server-provider.js';
export type { FeatureProviderOptions } from './provider-options.js';
export type { FeatureFlagMetadata } from './flag-resolution.js';
