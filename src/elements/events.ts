// The elements' events: typed, bubbling and composed, so a listener on `document` hears every provider and flag.
import type { FSSdkStatus } from '../core/index.js';
import type { ExposureDetail } from './client-context.js';

/** Why a `feature-error` was sent. */
export type FeatureErrorReason =
  | 'missing-attribute'
  | 'invalid-attribute'
  | 'invalid-bootstrap'
  | 'start-failed'
  | 'no-provider'
  | 'invalid-hit';

/** `feature-error` detail: a reason code and a message that says what to change. */
export interface FeatureErrorDetail {
  reason: FeatureErrorReason;
  message: string;
}

/** `feature-ready` detail: the visitor whose flags are now settled. */
export interface FeatureReadyDetail {
  visitorId: string;
  /**
   * Where the flags came from: `bootstrap`, `cache`, `fetch`, `timeout` (defaults shown), or `forced` (a test
   * provider's `flags`, or QA forcing: nothing is sent).
   */
  source: 'bootstrap' | 'cache' | 'fetch' | 'timeout' | 'forced';
}

/** `feature-status` detail. */
export interface FeatureStatusDetail {
  status: FSSdkStatus;
}

/** `feature-change` detail: what a `<feature-flag>` now shows. */
export interface FeatureChangeDetail {
  key: string;
  value: unknown;
  /** The variation shown, or null when the default is shown. */
  variationId: string | null;
}

/**
 * `feature-flags-change` detail: the flag keys whose value or variation changed when the visitor's flags were
 * fetched again (a live update, a context change, a new bucketing file), added and removed keys included.
 */
export interface FeatureFlagsChangeDetail {
  keys: string[];
}

/** Every event the elements send, by name: the one declaration the DOM's event maps below take it from. */
export interface FeatureEventMap {
  'feature-ready': CustomEvent<FeatureReadyDetail>;
  'feature-status': CustomEvent<FeatureStatusDetail>;
  'feature-error': CustomEvent<FeatureErrorDetail>;
  'feature-change': CustomEvent<FeatureChangeDetail>;
  'feature-flags-change': CustomEvent<FeatureFlagsChangeDetail>;
  'feature-exposed': CustomEvent<ExposureDetail>;
}

// The events bubble and are composed: typed on elements and on the document, where a page listens to all.
// Merged by `extends`, so adding an event to the map above types it everywhere.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- a merge, not a new type
  interface HTMLElementEventMap extends FeatureEventMap {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- a merge, not a new type
  interface DocumentEventMap extends FeatureEventMap {}
}

/** The detail an event of the map carries. */
export type FeatureEventDetail<K extends keyof FeatureEventMap> = FeatureEventMap[K]['detail'];

/** Dispatches a bubbling, composed event of the map from `target`, typed by its name; returns it. */
export const emit = <K extends keyof FeatureEventMap>(
  target: EventTarget,
  name: K,
  detail: FeatureEventDetail<K>,
): FeatureEventMap[K] => {
  const event = new CustomEvent(name, { detail, bubbles: true, composed: true }) as FeatureEventMap[K];
  target.dispatchEvent(event);
  return event;
};

/**
 * Reports a configuration problem once per element and reason: on the console (where developers look) and as
 * `feature-error` (where code listens). A page keeps working with defaults.
 */
export const reportOnce = (
  target: Element,
  reported: Set<string>,
  reason: FeatureErrorReason,
  message: string,
): void => {
  if (reported.has(reason + message)) return;
  reported.add(reason + message);
  console.error(`<${target.localName}>: ${message}`);
  emit(target, 'feature-error', { reason, message });
};
