import type { JsonValue } from './json.js';

/** A visitor context value: string, finite number or boolean (SPEC.md context rules). */
export type ContextValue = string | number | boolean;

/** A visitor context: case-sensitive keys to context values. */
export type VisitorContext = Record<string, ContextValue>;

/** Campaign types (PROTOCOL.md §3). */
export const CAMPAIGN_TYPES = ['ab', 'toggle', 'deployment', 'perso'] as const;

/** A campaign type. */
export type CampaignType = (typeof CAMPAIGN_TYPES)[number];

/** A variation's modifications: flag key → value; `null` means "this variation does not set the key". */
export interface Modifications {
  type: string;
  value: Record<string, JsonValue>;
}

/** Account settings that change how decisions are made (PROTOCOL.md §8.5, §8.6). */
export interface AccountSettings {
  /** Experience continuity: an anonymous visitor keeps its variations when it logs in. */
  enabledXPC: boolean;
  /** One visitor, one test: at most one `ab` campaign applies to a visitor. */
  enabled1V1T: boolean;
}

/** The request body of `POST /v2/{envId}/campaigns` (PROTOCOL.md §3), as our SDK sends it. */
export interface DecisionRequest {
  visitorId: string;
  anonymousId?: string | null;
  context: VisitorContext;
  triggerHit?: boolean;
  visitorConsent?: boolean;
}

/** The variation assigned in one campaign of a decision. */
export interface DecisionVariation {
  id: string;
  name: string;
  reference: boolean;
  modifications: Modifications;
}

/** One campaign of a decision answer (PROTOCOL.md §3). */
export interface DecisionCampaign {
  id: string;
  name: string;
  slug: string | null;
  type: string;
  variationGroupId: string;
  variationGroupName: string;
  variation: DecisionVariation;
}

/** The answer of the decision API, and the `decision` the engine returns (PROTOCOL.md §3). */
export interface Decision {
  visitorId: string;
  campaigns: DecisionCampaign[];
  panic?: boolean;
  extras?: { accountSettings?: AccountSettings };
}

/** Limits on a decision request's context (PROTOCOL.md §3; docs/http-api.md "Limits"). */
export const CONTEXT_LIMITS = {
  maxKeys: 200,
  maxSerializedBytes: 32 * 1024,
  maxKeyLength: 256,
  maxVisitorIdLength: 256,
  /** Characters (UTF-16 code units) of one string value: a long URL with its query fits twice over. */
  maxStringValueLength: 8192,
} as const;
