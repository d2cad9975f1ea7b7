// The PostgreSQL LISTEN connection, kept alive: a dedicated client (outside the query pool, so a busy pool
// never starves notifications) that reconnects with backoff when the database restarts or the network drops,
// and listens on every channel again. Notifications sent while it was away are lost, so subscribers hear
// of the break ('lost' once, 'resumed' once back) and reload what they hold.
import pg from 'pg';
import type { ListenInterruption } from '../sql/sql.js';

/** Reconnection delays: the first retry after `minDelayMs`, doubling up to `maxDelayMs`, ±20 % jitter. */
export interface ListenerBackoff {
  minDelayMs: number;
  maxDelayMs: number;
}

const DEFAULT_BACKOFF: ListenerBackoff = { minDelayMs: 250, maxDelayMs: 30_000 };

interface Subscription {
  onPayload: (payload: string) => void;
  onInterruption: ((event: ListenInterruption) => void) | undefined;
}

/** Quotes a channel name (our channels are lowercase identifiers). */
export const quoteChannel = (name: string): string => {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Invalid channel name "${name}".`);
  return `"${name}"`;
};

/** One LISTEN connection shared by every subscription of a store. */
export class PgListener {
  readonly #config: pg.ClientConfig;
  readonly #backoff: ListenerBackoff;
  readonly #channels = new Map<string, Set<Subscription>>();
  #client: pg.Client | null = null;
  #connecting: Promise<pg.Client> | null = null;
  #retry: NodeJS.Timeout | null = null;
  #failures = 0;
  #lostReason: string | null = null;
  #closed = false;

  constructor(config: pg.ClientConfig, backoff: Partial<ListenerBackoff> = {}) {
    this.#config = config;
    this.#backoff = { ...DEFAULT_BACKOFF, ...backoff };
  }

  /**
   * Subscribes to `channel`; resolves once listening (the first connection's failure rejects, so a server
   * does not start deaf), to the unsubscribe function.
   */
  async listen(
    channel: string,
    onPayload: (payload: string) => void,
    onInterruption?: (event: ListenInterruption) => void,
  ): Promise<() => Promise<void>> {
    const subscription: Subscription = { onPayload, onInterruption };
    let subscriptions = this.#channels.get(channel);
    const first = subscriptions === undefined;
    if (subscriptions === undefined) {
      subscriptions = new Set();
      this.#channels.set(channel, subscriptions);
    }
    subscriptions.add(subscription);
    try {
      const client = this.#client ?? (await this.#connectOnce());
      // LISTEN twice on one channel is a no-op, so a connection that just listened on every channel is fine.
      if (first) await client.query(`LISTEN ${quoteChannel(channel)}`);
    } catch (error) {
      subscriptions.delete(subscription);
      throw error;
    }
    return () => {
      subscriptions.delete(subscription);
      return Promise.resolve();
    };
  }

  /** Stops listening and reconnecting. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry !== null) clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => undefined);
  }

  #connectOnce(): Promise<pg.Client> {
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = null;
    });
    return this.#connecting;
  }

  async #connect(): Promise<pg.Client> {
    const client = new pg.Client(this.#config);
    // Without an error listener a dropped connection would crash the process.
    client.on('error', (error) => this.#lost(client, error.message));
    client.on('end', () => this.#lost(client, 'the connection ended'));
    client.on('notification', (message) => {
      for (const subscription of this.#channels.get(message.channel) ?? []) {
        subscription.onPayload(message.payload ?? '');
      }
    });
    try {
      await client.connect();
      for (const channel of this.#channels.keys()) await client.query(`LISTEN ${quoteChannel(channel)}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      throw new Error('the listener is closed');
    }
    this.#client = client;
    return client;
  }

  /** The current connection is gone: tell subscribers once per outage, and retry with backoff. */
  #lost(client: pg.Client, reason: string): void {
    if (client !== this.#client || this.#closed) return;
    this.#client = null;
    client.end().catch(() => undefined);
    if (this.#lostReason === null) {
      this.#lostReason = reason;
      this.#tell({ state: 'lost', reason });
    }
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    if (this.#closed || this.#retry !== null) return;
    const { minDelayMs, maxDelayMs } = this.#backoff;
    const delay = Math.min(minDelayMs * 2 ** this.#failures, maxDelayMs) * (0.8 + 0.4 * Math.random());
    this.#failures++;
    // unref: a retry pending must not keep a stopping process alive.
    this.#retry = setTimeout(() => {
      this.#retry = null;
      this.#connectOnce().then(
        () => {
          const reason = this.#lostReason ?? 'the connection was lost';
          this.#failures = 0;
          this.#lostReason = null;
          this.#tell({ state: 'resumed', reason });
        },
        () => this.#scheduleRetry(),
      );
    }, delay).unref();
  }

  #tell(event: ListenInterruption): void {
    for (const subscriptions of this.#channels.values()) {
      for (const subscription of subscriptions) subscription.onInterruption?.(event);
    }
  }
}
