// The small SQL surface both stores share: PGlite and node-postgres differ only behind this interface, so
// every query and migration is written once (DESIGN.md: one SQL schema and migrations for both).

/** A row as the driver returns it, before a query's own guard narrows it. */
export type Row = Record<string, unknown>;

/** Something that runs parameterised queries: the database or an open transaction. */
export interface Queryable {
  /**
   * Runs one statement with `$1…` parameters and returns its rows. A Uint8Array bound to a text parameter
   * is the text its UTF-8 bytes spell (both drivers send it in binary format).
   */
  query(text: string, params?: readonly unknown[]): Promise<Row[]>;
}

/** A break in a notification subscription: `lost` once when it stops, `resumed` once listening again. */
export interface ListenInterruption {
  state: 'lost' | 'resumed';
  /** Why the connection was lost. */
  reason: string;
}

/** A database connection (PGlite instance or pg pool). */
export interface Sql extends Queryable {
  /** Runs several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Subscribes to a NOTIFY channel; resolves once listening, to an unsubscribe function. Notifications sent
   * during an interruption are lost: `onInterruption` hears of it.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onInterruption?: (event: ListenInterruption) => void,
  ): Promise<() => Promise<void>>;
  /**
   * Where report reads go (a second pool, or a read replica), so that they never wait for a connection behind
   * hits and decisions; absent: this connection.
   */
  readonly reportReads?: Queryable;
  /**
   * Runs one report-rollup fold (rollup-fold-sql.ts `foldBatch`) where the database runs, when that is another
   * thread: the embedded store's single connection is held for a transaction's whole life, and a fold driven
   * from this thread would hold it across every event-loop turn between its statements, a turn that under load
   * waits behind every request in the queue. Absent: the fold runs here in `transaction`.
   */
  readonly foldRollups?: (envId: string, limit: number, options: { wait: boolean }) => Promise<number>;
  /** A name that distinguishes this database's notifications from another schema's on the same server. */
  readonly channelPrefix: string;
  /** Closes the connection(s). */
  close(): Promise<void>;
}

/** Reads a text column. */
export const text = (row: Row, column: string): string => {
  const value = row[column];
  if (typeof value !== 'string') throw new TypeError(`column ${column} is not text`);
  return value;
};

/** Reads a nullable text column. */
export const textOrNull = (row: Row, column: string): string | null => {
  const value = row[column];
  return typeof value === 'string' ? value : null;
};

/** Reads a numeric column (bigint columns come back as strings from pg and bigint from PGlite). */
export const num = (row: Row, column: string): number => {
  const value = row[column];
  if (typeof value === 'number') return value;
  if (typeof value === 'string' || typeof value === 'bigint') return Number(value);
  throw new TypeError(`column ${column} is not a number`);
};

/** Reads a nullable numeric column. */
export const numOrNull = (row: Row, column: string): number | null =>
  row[column] === null || row[column] === undefined ? null : num(row, column);

/** Reads a boolean column. */
export const bool = (row: Row, column: string): boolean => row[column] === true;

/** Reads a bytea column. */
export const bytes = (row: Row, column: string): Uint8Array => {
  const value = row[column];
  if (value instanceof Uint8Array) return value;
  throw new TypeError(`column ${column} is not bytea`);
};
