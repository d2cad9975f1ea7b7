// Bucketing mode's SEGMENT hit (PROTOCOL.md §3): no request reaches the server that would store the visitor's
// context, so the visitor sends it. Imported by the bucketing chunk only: the decision-API entry never sends it.
import type { VisitorContext } from '../../protocol/index.js';
import type { TrackedHit } from './tracker.js';

/**
 * A SEGMENT hit carrying the visitor context (sent on the wire as `s`, values stringified). The context is the
 * visitor's frozen view (`visitor.context`), replaced on every change and never changed in place: the hit holds
 * it as it is, without a copy.
 */
export const segmentHit = (context: Readonly<VisitorContext>): TrackedHit => ({
  type: 'SEGMENT',
  content: { context },
});
