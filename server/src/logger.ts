// Structured logs (pino) with secrets redacted: API keys and bearer tokens in headers, and access tokens in
// URLs (PROTOCOL.md §13.4, §13.7: secrets never appear in logs).
import { pino, type Logger, type DestinationStream } from 'pino';

/** Replaces the value of `access_token` (and other secret query parameters) in a URL. */
export const redactUrl = (url: string): string =>
  url.replace(/([?&](?:access_token|client_secret|api_key)=)[^&#]*/gi, '$1[redacted]');

/** Creates the server's logger. */
export const createLogger = (level = 'info', destination?: DestinationStream): Logger =>
  pino(
    {
      level,
      base: { service: 'feature-server' },
      redact: {
        paths: [
          'req.headers["x-api-key"]',
          'req.headers.authorization',
          'req.headers.cookie',
          'headers["x-api-key"]',
          'headers.authorization',
          'apiKey',
          'clientSecret',
        ],
        censor: '[redacted]',
      },
      serializers: {
        url: (url: unknown) => (typeof url === 'string' ? redactUrl(url) : url),
      },
    },
    destination,
  );
