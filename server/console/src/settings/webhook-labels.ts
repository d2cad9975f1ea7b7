// The words the Webhooks screen uses for event kinds and delivery states. The kinds are the server's
// (server/src/webhooks/webhook-events.ts WEBHOOK_EVENT_TYPES, in its order; a test holds the two lists equal):
// the console bundle does not take server code, so the list is written here once more.

/** The event kinds a webhook can be sent, with what each means to an operator. */
export const WEBHOOK_EVENT_LABELS: ReadonlyArray<{ kind: string; label: string }> = [
  { kind: 'campaign.created', label: 'A campaign is created' },
  { kind: 'campaign.updated', label: 'A campaign is edited' },
  { kind: 'campaign.state_changed', label: 'A campaign is paused, resumed or interrupted' },
  { kind: 'campaign.deleted', label: 'A campaign is deleted' },
  { kind: 'campaigns.imported', label: 'Campaigns are imported' },
  { kind: 'environment.panic_changed', label: 'Panic is turned on or off' },
  { kind: 'environment.settings_changed', label: 'The environment settings change' },
  { kind: 'environment.api_key_rotated', label: 'The API key is rotated' },
];

/** What a delivery's state means, as the log says it. */
export const DELIVERY_STATE_LABELS: Readonly<Record<string, string>> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};
