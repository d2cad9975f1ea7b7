// The hits the elements build, in a module of their own that they load through load-hit-builders.ts when a hit is sent: the
// hit classes and their field checks are not needed to render a variation, so they stay out of the bytes a
// page loads before its first one (the tracking chunk, which `start` loads anyway, shares them).
import { Event, EventCategory, Screen, type HitProtocol } from '../core/index.js';
import { numberOf } from './element-properties.js';

const CATEGORIES: Record<string, EventCategory> = {
  action_tracking: EventCategory.Action_Tracking,
  user_engagement: EventCategory.User_Engagement,
};

/** What `<feature-hit type="event">` sends. */
export interface EventHitSettings {
  action: string | null;
  category: string | null;
  label: string | null;
  value: number | undefined;
}

/** The Event hit of `settings`, or the problem that keeps it from being sent (said once by the element). */
export const eventHit = (settings: EventHitSettings): { hit: HitProtocol; problem: string | null } => {
  const category = CATEGORIES[settings.category ?? 'action_tracking'];
  // The property may hold text a framework set (`value="3"`), read as the attribute would be.
  const value = numberOf(settings.value);
  const hit = new Event({
    category: category ?? EventCategory.Action_Tracking,
    action: settings.action ?? '',
    ...(settings.label === null ? {} : { label: settings.label }),
    ...(value === undefined ? {} : { value }),
  });
  const problem =
    category === undefined
      ? `category="${settings.category ?? ''}" is not action_tracking or user_engagement`
      : hit.validate();
  return { hit, problem };
};

/** A Screen hit for `location`. */
export const screenHit = (location: string): HitProtocol => new Screen({ location });
