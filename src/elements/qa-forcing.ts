// QA forcing on a live page (README "QA on a live site"): a `<feature-provider qa>` whose page URL has
// `?feature-qa=…` shows the flags the parameter names, for that page view in that browser only, and starts no SDK:
// nothing is requested or sent (no decision, no consent event, no exposure, no hit), so a QA person's visits
// never count. The provider's own client shows them (a framework bound to its atoms sees them too); with no SDK
// it has no visitor, so its exposures and hits go nowhere and no `feature-exposed` fires: a page that forwards
// exposures to its own analytics forwards none. The page's log says what is forced and how to stop.
import { emit } from './events.js';
import { FORCED_VARIATION, describeForced, forcedFlags, parseForcedValues } from './forced-flags.js';
import type { ProviderClient } from './provider-client.js';

/** The part of `<feature-provider>` QA forcing reads: a type, so this module does not import that class. */
interface ForcedProvider extends Element {
  readonly visitorId: string | null;
}

/**
 * Shows in `client` (never started) the flags the page URL's query forces: `feature-qa` holds them (a JSON
 * object, or `key:value` pairs), `feature-qa-variation` the variation they belong to (default `forced`). Logs
 * them and sends `feature-ready` (source `forced`) from `provider`.
 */
export const forceForQa = (provider: ForcedProvider, client: ProviderClient): void => {
  const query = new URLSearchParams(location.search);
  const { values, problem } = parseForcedValues(query.get('feature-qa') ?? '');
  const variation = query.get('feature-qa-variation') || FORCED_VARIATION;
  const flags = forcedFlags(values, variation);
  const tag = `<${provider.localName} qa>`;
  if (problem !== null) console.error(`${tag}: ?feature-qa=…: ${problem}.`);
  console.warn(
    `${tag}: QA forcing for this page view (?feature-qa in the URL): ` +
      `${describeForced(flags) || 'no flag'} (variation "${variation}"). ` +
      'Other flags show their defaults. Nothing is sent: no decision request, no exposure, no hit. ' +
      'Remove the parameter to see the live flags.',
  );
  client.$flags.set(flags);
  client.$ready.set(true);
  emit(provider, 'feature-ready', { visitorId: provider.visitorId ?? '', source: 'forced' });
};
