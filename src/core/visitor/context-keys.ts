import { CONTEXT_LIMITS } from '../../protocol/index.js';
/** The value type a predefined context key takes (SPEC.md: String, bool, int, double). */
export type ContextKeyType = 'string' | 'boolean' | 'int' | 'double';

/** A predefined context key: the key sent to the server and the type of its value. */
export interface FeatureContextKey<K extends string = string, T extends ContextKeyType = ContextKeyType> {
  /** The context key sent to the server. */
  readonly key: K;
  /** The type its value must have. */
  readonly type: T;
}

// Pure: the table below is dropped from bundles of applications that never import `FeatureContext`.
const key = /* @__NO_SIDE_EFFECTS__ */ <K extends string, T extends ContextKeyType>(
  k: K,
  type: T,
): FeatureContextKey<K, T> => Object.freeze({ key: k, type });

/**
 * Predefined context keys (SPEC.md "Predefined context keys"), for `visitor.updateFeatureContext`. The SDK
 * sets FIRST_TIME_INIT, DEVICE_LOCAL, DEVICE_TYPE, OS_NAME, OS_VERSION_CODE and FEATURE_VERSION itself during
 * `start` (PROTOCOL.md §16.5); the application may override any of them at any time.
 */
export const FeatureContext = /* @__PURE__ */ Object.freeze({
  /** `sdk_firstTimeInit` (bool, auto-set): true on the first start with this storage or process. */
  FIRST_TIME_INIT: key('sdk_firstTimeInit', 'boolean'),
  /** `sdk_deviceLanguage` (String, auto-set). */
  DEVICE_LOCAL: key('sdk_deviceLanguage', 'string'),
  /** `sdk_deviceType` (String, auto-set): `mobile`, `tablet`, `desktop` or `server`. */
  DEVICE_TYPE: key('sdk_deviceType', 'string'),
  /** `sdk_city` (String). */
  LOCATION_CITY: key('sdk_city', 'string'),
  /** `sdk_region` (String). */
  LOCATION_REGION: key('sdk_region', 'string'),
  /** `sdk_country` (String). */
  LOCATION_COUNTRY: key('sdk_country', 'string'),
  /** `sdk_lat` (double). */
  LOCATION_LAT: key('sdk_lat', 'double'),
  /** `sdk_long` (double). */
  LOCATION_LONG: key('sdk_long', 'double'),
  /** `sdk_osName` (String, auto-set). */
  OS_NAME: key('sdk_osName', 'string'),
  /** `sdk_osVersionCode` (String, auto-set). */
  OS_VERSION_CODE: key('sdk_osVersionCode', 'string'),
  /** `sdk_carrierName` (String); SPEC.md names it MVNO / CARRIER_NAME. */
  MVNO: key('sdk_carrierName', 'string'),
  /** `sdk_carrierName` (String); the same key as MVNO. */
  CARRIER_NAME: key('sdk_carrierName', 'string'),
  /** `sdk_devMode` (bool). */
  DEV_MODE: key('sdk_devMode', 'boolean'),
  /** `sdk_internetConnection` (String). */
  INTERNET_CONNECTION: key('sdk_internetConnection', 'string'),
  /** `sdk_versionName` (String): the application's version name. */
  APP_VERSION_NAME: key('sdk_versionName', 'string'),
  /** `sdk_versionCode` (int): the application's version code. */
  APP_VERSION_CODE: key('sdk_versionCode', 'int'),
  /** `sdk_fsVersion` (String, auto-set): the SDK's version. */
  FEATURE_VERSION: key('sdk_fsVersion', 'string'),
  /** `sdk_interfaceName` (String). */
  INTERFACE_NAME: key('sdk_interfaceName', 'string'),
});

/** One of the predefined keys of `FeatureContext`. */
export type FeatureContext = (typeof FeatureContext)[keyof typeof FeatureContext];

/** The TypeScript type of the value a predefined key takes. */
export type FeatureContextValue<K extends FeatureContextKey> = K['type'] extends 'string'
  ? string
  : K['type'] extends 'boolean'
    ? boolean
    : number;

/** The keys the SDK sets itself during `start` (PROTOCOL.md §16.5), kept by `clearContext`. */
export interface DeviceContext {
  sdk_firstTimeInit: boolean;
  sdk_deviceLanguage: string;
  sdk_deviceType: string;
  sdk_osName: string;
  sdk_osVersionCode: string;
  sdk_fsVersion: string;
}

/** Why `value` does not fit a predefined key's type, or null when it fits. */
export const predefinedValueProblem = (k: FeatureContextKey, value: unknown): string | null => {
  const { type } = k;
  const fits =
    type === 'string' || type === 'boolean'
      ? typeof value === type
      : type === 'int'
        ? Number.isInteger(value)
        : typeof value === 'number' && Number.isFinite(value);
  return fits ? null : `${k.key} takes ${type === 'int' ? 'an integer' : `a ${type}`}`;
};

/** Why `value` cannot be a context value (string, boolean, finite number), or null when it can. */
export const contextValueProblem = (value: unknown): string | null => {
  if (typeof value === 'string')
    return value.length > CONTEXT_LIMITS.maxStringValueLength
      ? `a string value has at most ${CONTEXT_LIMITS.maxStringValueLength} characters (this one has ${value.length})`
      : null;
  if (typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : 'a number must be finite';
  return `a value must be a string, a boolean or a finite number, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`;
};
