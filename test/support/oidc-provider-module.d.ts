// The part of oidc-provider 8 (a dev dependency without type declarations) that the test provider uses
// (test/support/oidc-provider.ts): enough to start it, hook its answers and read its interactions.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** The koa context a middleware sees (only what the test provider reads or changes). */
  export interface ProviderContext {
    path: string;
    method: string;
    status: number;
    body: unknown;
  }

  /** A koa middleware. */
  export type ProviderMiddleware = (ctx: ProviderContext, next: () => Promise<void>) => Promise<void>;

  /** An account as findAccount answers it. */
  export interface ProviderAccount {
    accountId: string;
    claims: (use: string, scope: string) => Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  /** The configuration the test provider sets. */
  export interface ProviderConfiguration {
    clients: Array<Record<string, unknown>>;
    jwks: { keys: Array<Record<string, unknown>> };
    cookies: { keys: string[] };
    claims: Record<string, string[] | null>;
    scopes?: string[];
    conformIdTokenClaims: boolean;
    pkce: { required: () => boolean };
    ttl?: Record<string, number>;
    features?: Record<string, { enabled: boolean }>;
    findAccount: (ctx: unknown, sub: string) => Promise<ProviderAccount | undefined>;
    renderError?: (ctx: ProviderContext, out: Record<string, string>, error: Error) => Promise<void>;
  }

  /** The provider: a koa application. */
  export class Provider {
    constructor(issuer: string, configuration: ProviderConfiguration);
    use(middleware: ProviderMiddleware): void;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
