/** Actions an access may grant (PROTOCOL.md §13.2). */
export const ACTIONS = [
  'campaign.list',
  'campaign.read',
  'campaign.create',
  'campaign.update',
  'campaign.delete',
  'campaign.toggle',
  'environment.panic',
  'report.read',
] as const;

/** An action of the remote control API. */
export type Action = (typeof ACTIONS)[number];

/** The token request body (PROTOCOL.md §13.3). */
export interface TokenRequest {
  grant_type: 'client_credentials';
  scope: string;
  client_id: string;
  client_secret: string;
}

/** The token answer (PROTOCOL.md §13.3); no `expires_in` for a token without expiry. */
export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in?: number;
  scope: string;
}

/** The token check answer (PROTOCOL.md §13.4, RFC 7662). */
export type TokenCheckAnswer =
  | {
      active: true;
      client_id: string;
      account: string;
      expires_in?: number;
      scope: string;
      exp?: number;
      iat: number;
      token_type: 'Bearer';
    }
  | { active: false };

/** Token lifetime bounds in seconds: absent → default; 0 → no expiry. */
export const TOKEN_LIFETIME = { default: 3600, max: 31_536_000 } as const;
