import type { ActivationItem, HitCacheRecord, JsonValue, WireHit } from '../../protocol/index.js';
import { HIT_FIELDS } from './hit-fields.js';

/** Queue time (PROTOCOL.md §4, §5.1): send time minus creation time, never negative (clocks step back). */
const queueTime = (record: HitCacheRecord, now: number): number =>
  Math.max(0, Math.round(now - record.data.content.createdAt));

/**
 * A cached or pooled hit record (SDK names) → its wire form (PROTOCOL.md §5.1), with `qt` at `now`.
 *
 * Ids: `vid` is the anonymous id when there is one, else the visitor id; `cuid` is the authenticated id,
 * else null. A record with an anonymous id belongs to an authenticated visitor. A visitor built
 * authenticated with no anonymous id known sends its id in both, and that case cannot be told from an
 * anonymous visitor by the ids alone, so its records carry `content.authenticated: true` (only then).
 */
export const toWireHit = (record: HitCacheRecord, now: number): WireHit => {
  const { visitorId, anonymousId, type, content } = record.data;
  const wire: Record<string, JsonValue> = {
    t: type,
    vid: anonymousId ?? visitorId,
    cuid: anonymousId !== null || content.authenticated === true ? visitorId : null,
    qt: queueTime(record, now),
    hid: content.hid,
  };
  if (type === 'SEGMENT') {
    const context = content.context;
    const s: Record<string, string> = {};
    if (context && typeof context === 'object' && !Array.isArray(context))
      for (const [key, value] of Object.entries(context))
        s[key] = typeof value === 'string' ? value : JSON.stringify(value);
    wire.s = s;
  } else if (type !== 'ACTIVATE') {
    for (const [name, key] of HIT_FIELDS[type]) {
      const value = content[name];
      // EventCategory's SDK names (`Action_Tracking`) become the wire's words (`Action Tracking`).
      if (value !== undefined)
        wire[key] = key === 'ec' && typeof value === 'string' ? value.replace('_', ' ') : value;
    }
  }
  return wire as unknown as WireHit;
};

/**
 * A cached or pooled ACTIVATE record → one item of the activation batch (PROTOCOL.md §4), with `qt` at
 * `now`. Note the swap against hits: here `vid` is the current id and `aid` the anonymous id.
 */
export const toWireActivation = (record: HitCacheRecord, now: number): ActivationItem => {
  const { visitorId, anonymousId, content } = record.data;
  return {
    vid: visitorId,
    aid: anonymousId,
    caid: content.variationGroupId as string,
    vaid: content.variationId as string,
    qt: queueTime(record, now),
    hid: content.hid,
  };
};
