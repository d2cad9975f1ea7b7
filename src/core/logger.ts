/** Log levels and their ranks (PROTOCOL.md §16.4); a message is written when its rank ≤ the configured one. */
export const Level = {
  NONE: 0,
  EMERGENCY: 1,
  ALERT: 2,
  CRITICAL: 3,
  ERROR: 4,
  WARNING: 5,
  NOTICE: 6,
  INFO: 7,
  DEBUG: 8,
  ALL: 9,
} as const;
/** A log level (its rank). */
export type Level = (typeof Level)[keyof typeof Level];

/** The name of a level, for output. */
export type LevelName = keyof typeof Level;

/** Where log lines go: replace it with `ConfigBuilder.withLogManager` to route logs elsewhere. */
export interface LogManager {
  log(level: Level, name: LevelName, message: string): void;
}

// Ranks are 0…9 in declaration order, so a rank indexes the names.
const NAMES = Object.keys(Level) as LevelName[];

/** The default log manager: the console, with the SDK's prefix. */
export const consoleLogManager: LogManager = {
  log(level, name, message) {
    const line = `[feature-ts] ${name}: ${message}`;
    console[
      level <= Level.ERROR
        ? 'error'
        : level === Level.WARNING
          ? 'warn'
          : level <= Level.INFO
            ? 'info'
            : 'debug'
    ](line);
  },
};

/**
 * The SDK's logger: one per SDK instance. `once` keys make a repeated warning (same code and subject) be
 * written once per instance, so a flag read in a render loop cannot flood the console.
 */
export class Logger {
  readonly #seen = new Set<string>();

  #level: Level;
  readonly #manager: LogManager;

  constructor(level: Level = Level.ALL, manager: LogManager = consoleLogManager) {
    this.#level = level;
    this.#manager = manager;
  }

  /** Changes the level at run time (`Feature.setLoggerLevel`). */
  setLevel(level: Level): void {
    this.#level = level;
  }

  /** The current level. */
  getLevel(): Level {
    return this.#level;
  }

  /**
   * Writes `message` at `level` when the level allows it; with `onceKey`, only the first time. A function is
   * called only then: a message that costs something to build (a flag miss lists the known keys) costs it once.
   */
  log(level: Level, message: string | (() => string), onceKey?: string): void {
    if (level === Level.NONE || level > this.#level) return;
    if (onceKey !== undefined) {
      if (this.#seen.has(onceKey)) return;
      this.#seen.add(onceKey);
    }
    try {
      this.#manager.log(level, NAMES[level] as LevelName, typeof message === 'string' ? message : message());
    } catch {
      // A throwing custom log manager must never break the SDK call that logged.
    }
  }

  /** Writes an error. */
  error(message: string, onceKey?: string): void {
    this.log(Level.ERROR, message, onceKey);
  }

  /** Writes a warning. */
  warning(message: string | (() => string), onceKey?: string): void {
    this.log(Level.WARNING, message, onceKey);
  }

  /** Writes an informational message. */
  info(message: string, onceKey?: string): void {
    this.log(Level.INFO, message, onceKey);
  }

  /** Writes a debug message. */
  debug(message: string, onceKey?: string): void {
    this.log(Level.DEBUG, message, onceKey);
  }
}
