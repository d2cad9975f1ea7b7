// Webhook signatures (issue 36, docs/teams.md "Webhooks"), in the timestamped style of Stripe and GitHub: the
// target's secret signs `<unix seconds>.<body>` with HMAC-SHA256, sent as `Feature-Signature: t=<seconds>,
// v1=<hex>`. The timestamp inside the signed text lets a receiver refuse an old message replayed to it; the
// delivery id (`Feature-Webhook-Id`) lets it refuse one replayed within the tolerance.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header that carries the signature. */
export const SIGNATURE_HEADER = 'Feature-Signature';
/** The header that carries the delivery id: the same on every retry of one delivery. */
export const DELIVERY_HEADER = 'Feature-Webhook-Id';
/** The header that carries the event kind. */
export const EVENT_HEADER = 'Feature-Webhook-Event';
/** How old a signature a receiver accepts by default, in seconds. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const hmacHex = (secret: string, timestamp: number, body: string): string =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

/** The `Feature-Signature` value of `body` signed with `secret` at `timestamp` (unix seconds). */
export const signWebhook = (secret: string, body: string, timestamp: number): string =>
  `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;

/**
 * Why `header` is not a valid signature of `body` under `secret` at `nowSeconds` (more than `tolerance`
 * seconds apart, either way), or null when it is. Constant-time in the signature's content.
 */
export const webhookSignatureProblem = (
  secret: string,
  body: string,
  header: string | undefined,
  nowSeconds: number,
  tolerance = SIGNATURE_TOLERANCE_SECONDS,
): string | null => {
  if (header === undefined) return `no ${SIGNATURE_HEADER} header`;
  const parts = new Map(header.split(',').map((part) => part.trim().split('=', 2) as [string, string]));
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1');
  if (!Number.isSafeInteger(timestamp) || given === undefined) return 'a malformed signature header';
  if (Math.abs(nowSeconds - timestamp) > tolerance) return 'a signature outside the tolerance (a replay?)';
  const expected = Buffer.from(hmacHex(secret, timestamp, body), 'hex');
  const actual = Buffer.from(given, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? null : 'a wrong signature';
};
