import {
  SDK_NAME,
  SDK_VERSION,
  decisionRoute,
  isJsonObject,
  type Decision,
  type DecisionCampaign,
  type DecisionRequest,
} from '../../protocol/index.js';
import { fetchText } from '../net/http.js';
import { fetchError, shownUrl } from '../net/request-failure.js';
import type { DecisionOutcome, DecisionSource, DecisionSourceDeps, Reevaluable } from './source.js';
import { WatchedVisitors } from './watched-visitors.js';

/** `value` when it is a string, else `fallback`. */
const text = <F extends string | null>(value: unknown, fallback: F): string | F =>
  typeof value === 'string' ? value : fallback;

/** One campaign of an answer, or null when it is malformed (it is then left out, never thrown on). */
const parseCampaign = (c: unknown): DecisionCampaign | null => {
  if (!isJsonObject(c) || !isJsonObject(c.variation)) return null;
  const v = c.variation;
  const m = v.modifications;
  if (
    typeof c.id !== 'string' ||
    typeof c.variationGroupId !== 'string' ||
    typeof v.id !== 'string' ||
    !isJsonObject(m) ||
    !isJsonObject(m.value)
  )
    return null;
  return {
    id: c.id,
    name: text(c.name, ''),
    slug: text(c.slug, null),
    type: text(c.type, ''),
    variationGroupId: c.variationGroupId,
    variationGroupName: text(c.variationGroupName, ''),
    variation: {
      id: v.id,
      name: text(v.name, ''),
      reference: v.reference === true,
      modifications: {
        type: text(m.type, 'FLAG'),
        value: m.value as DecisionCampaign['variation']['modifications']['value'],
      },
    },
  };
};

/** The decision in an answer body, or null when the body is not a decision (PROTOCOL.md §3). */
export const parseDecision = (body: unknown): Decision | null => {
  if (!isJsonObject(body) || !Array.isArray(body.campaigns)) return null;
  const campaigns = body.campaigns.map(parseCampaign).filter((c) => c !== null);
  const decision: Decision = { visitorId: text(body.visitorId, ''), campaigns };
  if (body.panic === true) decision.panic = true;
  const settings = isJsonObject(body.extras) ? body.extras.accountSettings : undefined;
  if (isJsonObject(settings))
    decision.extras = {
      accountSettings: {
        enabledXPC: settings.enabledXPC === true,
        enabled1V1T: settings.enabled1V1T === true,
      },
    };
  return decision;
};

/**
 * The decision-API source: one `POST {D}/{envId}/campaigns` per decision (PROTOCOL.md §3), aborted after the
 * configured timeout (SPEC.md `withTimeout`). Failures resolve as `{ ok: false }` so the visitor keeps its
 * last flags (§9.4).
 */
export const createApiSource = (deps: DecisionSourceDeps): DecisionSource => {
  const url = decisionRoute(deps.urls.decisionApi, deps.envId);
  // Every failure names the request, so a wrong server URL or env id shows in the first log line. The query
  // (always present: decisionRoute adds it) is left out, and with it anything a configured URL carried there;
  // the API key is a header, never in the URL.
  const request = `POST ${shownUrl(url)}: `;
  const failure = (reason: string): DecisionOutcome => ({ ok: false, reason: request + reason });
  const controllers = new Set<AbortController>();
  // Only with live updates on: without them nothing would re-fetch, and a server would hold a reference per visitor.
  const watched = deps.liveUpdates === true ? new WatchedVisitors() : null;
  return {
    ...(watched === null
      ? {}
      : { watch: (visitor: Reevaluable) => watched.add(visitor), refresh: () => watched.refetch() }),
    async decide(input): Promise<DecisionOutcome> {
      const body: DecisionRequest = {
        visitorId: input.visitorId,
        anonymousId: input.anonymousId,
        context: input.context,
        triggerHit: false,
        visitorConsent: input.hasConsented,
      };
      const controller = new AbortController();
      controllers.add(controller);
      try {
        // The SDK's one fetch with a timeout (net/http.ts): the timer covers the whole exchange, body included.
        const [res, answer] = await fetchText(
          url,
          {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-api-key': deps.apiKey,
              'x-sdk-client': SDK_NAME,
              'x-sdk-version': SDK_VERSION,
            },
            body: JSON.stringify(body),
          },
          deps.timeout,
          controller,
        );
        if (!res.ok) return failure(`the decision API answered ${res.status}: ${answer.slice(0, 200)}`);
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(answer);
        } catch {
          // not JSON: "not a decision", like JSON of the wrong shape
        }
        const decision = parseDecision(parsed);
        return decision ? { ok: true, decision } : failure('the decision API answer is not a decision');
      } catch (error) {
        return failure(
          controller.signal.aborted
            ? `no decision within the ${deps.timeout} ms timeout`
            : `the decision request failed: ${fetchError(error, url, deps.serverHint)}`,
        );
      } finally {
        controllers.delete(controller);
      }
    },
    close() {
      watched?.clear();
      for (const c of controllers) c.abort();
    },
  };
};
