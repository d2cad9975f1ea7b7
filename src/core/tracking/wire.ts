import type { ActivationItem, HitCacheRecord, JsonValue } from '../../protocol/index.js';
import { HIT_FIELDS } from './hit-fields.js';

/**
 * An item's JSON text on the wire (PROTOCOL.md §4, §5.1) without its `qt`, which {@link withQueueTime} adds
 * at each send: the rest never changes, so the pool builds this once per item, weighs it against its bounds
 * and the request's byte limit, and splices it into every body that carries the item.
 *
 * An ACTIVATE record is one item of the activation batch (§4): `vid` the current id, `aid` the anonymous id.
 * A hit swaps them (§5.1): `vid` is the anonymous id when there is one, else the visitor id; `cuid` is the
 * authenticated id, else null. A record with an anonymous id belongs to an authenticated visitor. A visitor
 * built authenticated with no anonymous id known sends its id in both, and that case cannot be told from an
 * anonymous visitor by the ids alone, so its records carry `content.authenticated: true` (only then).
 */
export const wireJson = (record: HitCacheRecord): string => {
  const { visitorId, anonymousId, type, content } = record.data;
  if (type === 'ACTIVATE')
    // Typed against the protocol's item (qt aside, added per send), as the object built before this text was.
    return JSON.stringify({
      vid: visitorId,
      aid: anonymousId,
      caid: content.variationGroupId as string,
      vaid: content.variationId as string,
      hid: content.hid,
    } satisfies Omit<ActivationItem, 'qt'>);
  const wire: Record<string, JsonValue> = {
    t: type,
    vid: anonymousId ?? visitorId,
    cuid: anonymousId !== null || content.authenticated === true ? visitorId : null,
    hid: content.hid,
  };
  if (type === 'SEGMENT') {
    const s: Record<string, string> = {};
    // A context that is not an object (a cache written by hand) gives what the server's check then refuses.
    const context = (content.context ?? {}) as Record<string, JsonValue>;
    // Keys, not entries, and String for finite numbers and booleans (the same text as JSON.stringify): the
    // pair arrays and the calls were a third of a new visitor's SEGMENT hit (issue 33).
    for (const key of Object.keys(context)) {
      const value = context[key];
      s[key] =
        typeof value === 'string'
          ? value
          : typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
            ? String(value)
            : JSON.stringify(value);
    }
    wire.s = s;
  } else
    // A record of an unknown type (a cache written by hand) sends its ids only: the server rejects it by
    // index, where a throw here would stop every send after it.
    for (const [name, key] of (HIT_FIELDS as Partial<typeof HIT_FIELDS>)[type] ?? []) {
      const value = content[name];
      // EventCategory's SDK names (`Action_Tracking`) become the wire's words (`Action Tracking`).
      if (value !== undefined)
        wire[key] = key === 'ec' && typeof value === 'string' ? value.replace('_', ' ') : value;
    }
  return JSON.stringify(wire);
};

/**
 * `json` (from {@link wireJson}) with `qt`, the queue time (PROTOCOL.md §4, §5.1): send time `now` minus the
 * record's creation time, never negative (clocks step back).
 */
export const withQueueTime = (json: string, record: HitCacheRecord, now: number): string =>
  `${json.slice(0, -1)},"qt":${Math.max(0, Math.round(now - record.data.content.createdAt))}}`;
