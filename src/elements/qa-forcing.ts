// QA forcing on a live page (README "QA on a live site"): a `<feature-provider qa>` whose page URL has
// `?feature-qa=…` shows the flags the parameter names, for that page view in that browser only, and starts no SDK:
// nothing is requested or sent (no decision, no consent event, no exposure, no hit), so a QA person's visits
// never count. The visitor is treated as not consenting, so no `feature-exposed` fires either: a page that
// forwards exposures to its own analytics forwards none. The page's log says what is forced and how to stop.
import { emit } from './events.js';
import { ForcedClient } from './forced-client.js';
import { FORCED_VARIATION, describeForced, forcedFlags, parseForcedValues } from './forced-flags.js';

/** The part of `<feature-provider>` QA forcing reads: a type, so this module does not import that class. */
interface ForcedProvider extends Element {
  readonly visitorId: string | null;
}

/**
 * The client of `provider` forced by the page URL's query: `feature-qa` holds the flags (a JSON object, or
 * `key:value` pairs), `feature-qa-variation` the variation they belong to (default `forced`). Logs the forced
 * flags and sends `feature-ready` (source `forced`) from `provider`.
 */
export const forceForQa = (provider: ForcedProvider): ForcedClient => {
  const query = new URLSearchParams(location.search);
  const { values, problem } = parseForcedValues(query.get('feature-qa') ?? '');
  const variation = query.get('feature-qa-variation') || FORCED_VARIATION;
  const flags = forcedFlags(values, variation);
  // Never called: without consent the client records nothing, and it has nowhere to send.
  const client = new ForcedClient(() => undefined);
  client.$flags.set(flags);
  const tag = `<${provider.localName} qa>`;
  if (problem !== null) console.error(`${tag}: ?feature-qa=…: ${problem}.`);
  console.warn(
    `${tag}: QA forcing for this page view (?feature-qa in the URL): ` +
      `${describeForced(flags) || 'no flag'} (variation "${variation}"). ` +
      'Other flags show their defaults. Nothing is sent: no decision request, no exposure, no hit. ' +
      'Remove the parameter to see the live flags.',
  );
  emit(provider, 'feature-ready', { visitorId: provider.visitorId ?? '', source: 'forced' });
  return client;
};
