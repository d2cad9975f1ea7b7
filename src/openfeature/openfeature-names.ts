// OpenFeature's enum values, written as their strings. The providers import only TYPES from the OpenFeature
// packages: `feature-ts/openfeature` then loads with whichever of @openfeature/web-sdk or @openfeature/server-sdk
// the application installed (both optional peers) and never brings a second copy of @openfeature/core. Each
// string `satisfies` its enum member's value, so a typo fails to compile; the cast then gives it the enum's type
// (the lint rule below cannot see that check, hence its one exception here).
/* eslint-disable @typescript-eslint/no-unsafe-enum-assignment */
import type { ClientProviderEvents, ErrorCode, ServerProviderEvents } from '@openfeature/core';

/** `ErrorCode.FLAG_NOT_FOUND`. */
export const FLAG_NOT_FOUND =
  'FLAG_NOT_FOUND' satisfies `${ErrorCode.FLAG_NOT_FOUND}` as ErrorCode.FLAG_NOT_FOUND;

/** `ErrorCode.TYPE_MISMATCH`. */
export const TYPE_MISMATCH =
  'TYPE_MISMATCH' satisfies `${ErrorCode.TYPE_MISMATCH}` as ErrorCode.TYPE_MISMATCH;

/** `ErrorCode.TARGETING_KEY_MISSING`. */
export const TARGETING_KEY_MISSING =
  'TARGETING_KEY_MISSING' satisfies `${ErrorCode.TARGETING_KEY_MISSING}` as ErrorCode.TARGETING_KEY_MISSING;

/** `ErrorCode.INVALID_CONTEXT`. */
export const INVALID_CONTEXT =
  'INVALID_CONTEXT' satisfies `${ErrorCode.INVALID_CONTEXT}` as ErrorCode.INVALID_CONTEXT;

/** The web SDK's `ProviderEvents.ConfigurationChanged`. */
export const CLIENT_CONFIGURATION_CHANGED =
  'PROVIDER_CONFIGURATION_CHANGED' satisfies `${ClientProviderEvents.ConfigurationChanged}` as ClientProviderEvents.ConfigurationChanged;

/** The server SDK's `ProviderEvents.ConfigurationChanged`. */
export const SERVER_CONFIGURATION_CHANGED =
  'PROVIDER_CONFIGURATION_CHANGED' satisfies `${ServerProviderEvents.ConfigurationChanged}` as ServerProviderEvents.ConfigurationChanged;
