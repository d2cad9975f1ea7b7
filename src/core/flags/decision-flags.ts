import { buildFlags } from '../../engine/flags.js';
import { parseDecision } from '../decision/api.js';
import type { FlagsSnapshot } from './flag-entry.js';

/**
 * The flags of a decision body (PROTOCOL.md §3, §9.1), as `visitor.$flags` would hold them; null when the body
 * is not a decision or is in panic (every flag is then its default). For a UI that must show flags a server
 * decided before the SDK has started, such as the web components' first frame.
 */
export const flagsOfDecision = (body: unknown): FlagsSnapshot | null => {
  const decision = parseDecision(body);
  return decision === null || decision.panic === true ? null : buildFlags(decision.campaigns);
};
