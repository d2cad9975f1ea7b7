import type { TrackingEventDetails } from '@openfeature/core';
import { Event, EventCategory } from 'feature-ts';

/**
 * The hit OpenFeature's `track(name, context, details)` sends (PROTOCOL.md §18.1): an EVENT with category
 * `Action Tracking`, action `name` (the goal's name in reports) and value `details.value` when it is an integer
 * ≥ 0 (§5.1's `ev`); another value is left out, as the event hit cannot carry it. `Event` comes from the
 * package's main entry: the tracker takes the hit classes of the SDK the application started, never a copy.
 */
export const trackingEvent = (name: string, details?: TrackingEventDetails): Event => {
  const value = details?.value;
  return new Event({
    category: EventCategory.Action_Tracking,
    action: name,
    ...(value !== undefined && Number.isSafeInteger(value) && value >= 0 ? { value } : {}),
  });
};
