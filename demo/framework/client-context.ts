// The provider's client in React: handed down once the <feature-provider> element exists, and read through
// @nanostores/react's useStore, so a component re-renders when the visitor's flags or status change.
import { useStore } from '@nanostores/react';
import { createContext, useContext } from 'react';
import type { FlagMetadata } from '../../src/core/index.js';
import type { FeatureClient } from '../../src/elements/index.js';

/** The client of the enclosing <feature-provider>. */
export const ClientContext = createContext<FeatureClient | null>(null);

/** The enclosing provider's client; throws outside one (a mistake in this app, not a runtime state). */
export const useClient = (): FeatureClient => {
  const client = useContext(ClientContext);
  if (client === null) throw new Error('useClient() outside <ClientContext>');
  return client;
};

/** A flag as React reads it from the atoms. */
export interface FlagState<T> {
  /** False until the provider's flags are settled: show nothing that could be the wrong variation. */
  ready: boolean;
  /** The variation's value, or `fallback` when the flag is missing or of another type. */
  value: T;
  /** The flag's campaign and variation; null when the fallback is used. */
  metadata: FlagMetadata | null;
}

/** Flag `key` of the enclosing provider's visitor, re-read on every change of its flags. */
export function useFlag(key: string, fallback: boolean): FlagState<boolean>;
export function useFlag(key: string, fallback: number): FlagState<number>;
export function useFlag(key: string, fallback: string): FlagState<string>;
export function useFlag(key: string, fallback: string | number | boolean): FlagState<unknown> {
  const client = useClient();
  const flags = useStore(client.$flags);
  const ready = useStore(client.$ready);
  const entry = flags.get(key);
  return entry !== undefined && typeof entry.value === typeof fallback
    ? { ready, value: entry.value, metadata: entry.metadata }
    : { ready, value: fallback, metadata: null };
}
