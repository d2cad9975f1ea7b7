// The contract between the shared core suites and the two runtimes that run them. A suite is written once
// against this harness; test/core/shared/node-harness.ts backs it with node:test and an in-process protocol
// double, test/core/shared/browser-harness.ts with mocha/chai in Chromium and the wtr server commands.
import type * as CoreEntry from '../../../src/core/public.js';
import type { BucketingFile, Decision } from '../../../src/protocol/index.js';
import type { RecordedRequest, ScriptedAnswer } from '../../support/protocol-double.js';

export type { RecordedRequest, ScriptedAnswer };

/** The SDK's public entry: src/core/node.ts in Node, src/core/index.ts in the browser (same exports). */
export type CoreModule = typeof CoreEntry;

/** The assertions both runtimes provide (node:assert/strict, or chai's assert). */
export interface SharedAssert {
  equal: (actual: unknown, expected: unknown, message?: string) => void;
  notEqual: (actual: unknown, expected: unknown, message?: string) => void;
  deepEqual: (actual: unknown, expected: unknown, message?: string) => void;
  ok: (value: unknown, message?: string) => void;
  match: (actual: string, pattern: RegExp, message?: string) => void;
}

/** How a test scripts its double when it starts it. */
export interface DoubleOptions {
  envId?: string;
  apiKey?: string;
  /** Visitor id → decision; `*` answers any other visitor. Default: no campaigns. */
  decisions?: Record<string, Decision>;
  /** Answers that override the next requests of a route ("decision", "activate", "events"), in order. */
  queued?: Record<string, ScriptedAnswer[]>;
  /** The bucketing file it serves (bucketing mode); default none (404). */
  bucketing?: BucketingFile;
}

/** A protocol double (test/support/protocol-double.ts) on 127.0.0.1, wherever it is driven from. */
export interface DoubleHandle {
  url: string;
  envId: string;
  apiKey: string;
  /** The requests received by one route kind: "decision", "activate", "events", "bucketing", "usage". */
  requests: (kind: string) => Promise<RecordedRequest[]>;
  /** Replaces the decision table. */
  setDecisions: (decisions: Record<string, Decision>) => Promise<void>;
  /** Appends answers to a route's queue. */
  queue: (kind: string, answers: ScriptedAnswer[]) => Promise<void>;
  /** The live-update stream route (PROTOCOL.md §17): streams open now, opened so far, and what they get. */
  streams: {
    open: () => Promise<number>;
    opened: () => Promise<number>;
    /** A `change` event with id `revision` to every open stream. */
    push: (revision: number, etag?: string) => Promise<void>;
    /** Ends every open stream, as a server shutting down does. */
    end: () => Promise<void>;
  };
  /** Closes the server (the SDK then meets a network error); calling it again does nothing. */
  stop: () => Promise<void>;
}

/** What a shared suite receives. */
export interface CoreHarness {
  /** "node" or "browser": the only platform-dependent expectations are PROTOCOL.md §16.5's. */
  runtime: 'node' | 'browser';
  describe: (name: string, fn: () => void) => void;
  it: (name: string, fn: () => Promise<void> | void) => void;
  assert: SharedAssert;
  startDouble: (options?: DoubleOptions) => Promise<DoubleHandle>;
  sdk: CoreModule;
  /** The package version (PROTOCOL.md: the SDK's version is the package version). */
  sdkVersion: string;
}
