/** The SDK's name, sent as `x-sdk-client`, context key `fs_client` and in the `fs_consent` label (PROTOCOL.md). */
export const SDK_NAME = 'feature-ts';

/** The SDK's version: the package version (kept equal by a test). */
export const SDK_VERSION = '0.1.0';

/** The server's default base URL (PROTOCOL.md §13.9). */
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:8080';
