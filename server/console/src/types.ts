// The operator routes' answers as the console reads them (server/src/routes/operator.ts and its answer schemas).
export type { CampaignReport, RemoteCampaign, RemotePage, VariationReport } from 'feature-ts/protocol';

/** An account. */
export interface Account {
  id: string;
  name: string;
  created_at: string | null;
}

/** An environment (never with its API key, except in the answers that make one). */
export interface Environment {
  id: string;
  account_id: string;
  name: string;
  panic: boolean;
  settings: { enabledXPC?: boolean; enabled1V1T?: boolean };
}

/** A remote control access (never with its secret, except when made). */
export interface Access {
  id: string;
  account_id: string;
  name: string;
  environments: string[];
  actions: string[];
  client_id: string;
  created_at: string | null;
  revoked_at: string | null;
}

/** A list answer of the operator routes. */
export interface Items<T> {
  items: T[];
}
