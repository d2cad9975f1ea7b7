// What a provider keeps in the page's localStorage, beside the SDK's IndexedDB caches: the random id of a
// visitor the page did not name (so a reload is the same visitor), and a copy of the visitor's last flags as a
// decision body. IndexedDB answers after the first frame; this copy is read synchronously when the provider
// connects, so a returning visitor's variation is in the first frame. Storage that throws (private modes,
// blocked cookies) is treated as empty: the id then lasts for the page view, the flags wait for the fetch.
import type { Decision, DecisionCampaign, FlagsSnapshot } from '../core/index.js';

const PREFIX = 'feature-ts:';

const read = (key: string): string | null => {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
};

const write = (key: string, value: string | null): void => {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, value);
  } catch {
    // full or forbidden: the copy is an aid, the SDK's own caches still work
  }
};

/**
 * The page's anonymous visitor id for `envId`, made (128 random bits, hex) and kept on first use. Not
 * `crypto.randomUUID`: it exists only in secure contexts, and a page served over plain `http:` from another
 * machine is not one.
 */
export const pageVisitorId = (envId: string): string => {
  let id = read(`visitor:${envId}`);
  if (id === null || id === '') {
    id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
      '',
    );
    write(`visitor:${envId}`, id);
  }
  return id;
};

const flagsKey = (envId: string, visitorId: string): string => `flags:${envId}:${visitorId}`;

/** The kept decision of `visitorId`, or null. */
export const keptDecision = (envId: string, visitorId: string): Decision | null => {
  const text = read(flagsKey(envId, visitorId));
  if (text === null) return null;
  try {
    return JSON.parse(text) as Decision;
  } catch {
    return null;
  }
};

/**
 * Keeps `flags` as a decision body (one campaign entry per variation, its flags as the variation's values),
 * which gives back the same flags: each key appears once.
 */
export const keepFlags = (envId: string, visitorId: string, flags: FlagsSnapshot): void => {
  const campaigns = new Map<string, DecisionCampaign>();
  for (const [key, { value, metadata: m }] of flags) {
    let c = campaigns.get(m.variationId);
    if (c === undefined)
      campaigns.set(
        m.variationId,
        (c = {
          id: m.campaignId,
          name: m.campaignName,
          slug: m.slug === '' ? null : m.slug,
          type: m.campaignType,
          variationGroupId: m.variationGroupId,
          variationGroupName: m.variationGroupName,
          variation: {
            id: m.variationId,
            name: m.variationName,
            reference: m.isReference,
            modifications: { type: 'FLAG', value: {} },
          },
        }),
      );
    c.variation.modifications.value[key] = value;
  }
  const decision: Decision = { visitorId, campaigns: [...campaigns.values()] };
  write(flagsKey(envId, visitorId), JSON.stringify(decision));
};

/** Forgets the kept flags of `visitorId` (consent withdrawn). */
export const forgetFlags = (envId: string, visitorId: string): void => {
  write(flagsKey(envId, visitorId), null);
};
