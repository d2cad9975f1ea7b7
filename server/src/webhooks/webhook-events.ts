// What a webhook tells its target (issue 36, docs/teams.md "Webhooks"): one event per change of an environment's
// campaigns, panic, settings or API key, as a JSON body that names the event, the environment and what changed.
// Bodies carry ids, names and states, never secrets: a new API key is announced, not sent.

/** The kinds of event a webhook can be sent, in the order the console lists them. */
export const WEBHOOK_EVENT_TYPES = [
  'campaign.created',
  'campaign.updated',
  'campaign.state_changed',
  'campaign.deleted',
  'campaigns.imported',
  'environment.panic_changed',
  'environment.settings_changed',
  'environment.api_key_rotated',
] as const;

/** One kind of webhook event. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** True for a known event kind. */
export const isWebhookEventType = (value: unknown): value is WebhookEventType =>
  typeof value === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

/** A campaign as an event names it. */
export interface WebhookCampaign {
  id: string;
  name: string;
  slug: string | null;
  state: string;
}

/** What changed, by event kind. */
export type WebhookEventData =
  | { type: 'campaign.created' | 'campaign.updated' | 'campaign.deleted'; campaign: WebhookCampaign }
  | { type: 'campaign.state_changed'; campaign: WebhookCampaign; previousState: string }
  | { type: 'campaigns.imported'; campaigns: number }
  | { type: 'environment.panic_changed'; panic: boolean }
  | { type: 'environment.settings_changed'; enabledXPC: boolean; enabled1V1T: boolean }
  | { type: 'environment.api_key_rotated' };

/** What an event's body holds beside its kind: each kind's own fields. */
export type WebhookEventFields = WebhookEventData extends infer D
  ? D extends { type: WebhookEventType }
    ? Omit<D, 'type'>
    : never
  : never;

/** The JSON body a target receives (the same for every target of the event). */
export interface WebhookEventBody {
  /** The event's id: the same for each target; a target tells its deliveries apart by the delivery id header. */
  id: string;
  type: WebhookEventType;
  /** When the change was made (ISO 8601, UTC). */
  createdAt: string;
  envId: string;
  data: WebhookEventFields;
}

/** The body of event `id` of `envId` made at `createdMs`. */
export const webhookEventBody = (
  id: string,
  envId: string,
  createdMs: number,
  { type, ...data }: WebhookEventData,
): WebhookEventBody => ({ id, type, createdAt: new Date(createdMs).toISOString(), envId, data });
