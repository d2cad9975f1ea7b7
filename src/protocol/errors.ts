/** A field-level detail of an error body. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** The error body of SDK-facing, remote control and operator routes (PROTOCOL.md §2.4). */
export interface ErrorBody {
  message: string;
  code: ErrorCode;
  details?: ErrorDetail[];
  requestId?: string;
}

/** Stable error codes of PROTOCOL.md. */
export const ERROR_CODES = [
  'unsupported_media_type',
  'payload_too_large',
  'invalid_json',
  'invalid_body',
  'invalid_url',
  'unknown_environment',
  'missing_api_key',
  'invalid_api_key',
  'missing_token',
  'invalid_token',
  'insufficient_scope',
  'insufficient_role',
  'link_expired',
  'invalid_csrf_token',
  'not_found',
  'conflict',
  'method_not_allowed',
  'too_many_requests',
  'too_many_streams',
  'internal',
] as const;

/** A stable error code. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The error body of the token routes (RFC 6749 §5.2). */
export interface OAuthErrorBody {
  error:
    | 'invalid_request'
    | 'invalid_client'
    | 'invalid_grant'
    | 'unauthorized_client'
    | 'unsupported_grant_type'
    | 'invalid_scope'
    | 'slow_down';
  error_description: string;
}
