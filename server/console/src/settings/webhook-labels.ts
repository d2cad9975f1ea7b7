// The event kinds a webhook can be sent, as the server names them (server/src/webhooks/webhook-events.ts
// WEBHOOK_EVENT_TYPES, in its order; a test holds the two lists equal): the console bundle takes no server code,
// so the list is written here once more. The console shows the kinds by these names, the ones the bodies carry
// and docs/teams.md explains.

/** The event kinds, in the order the form lists them. */
export const WEBHOOK_EVENT_KINDS: readonly string[] = [
  'campaign.created',
  'campaign.updated',
  'campaign.state_changed',
  'campaign.deleted',
  'campaigns.imported',
  'environment.panic_changed',
  'environment.settings_changed',
  'environment.api_key_rotated',
];

/** The campaign state whose badge colour a delivery's state shares (waiting, done, given up). */
export const DELIVERY_BADGES: Readonly<Record<string, string>> = {
  pending: 'paused',
  delivered: 'active',
  failed: 'interrupted',
};
