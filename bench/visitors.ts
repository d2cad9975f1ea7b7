// The benches' visitors: 10 000 fixed contexts over the fixture's targeting keys (the i-th is always the same),
// so every figure of every file, peers included, is measured on the same people.
import type { EngineVisitor } from '../src/engine/index.js';

/** How many distinct visitors the benches cycle through. */
export const BENCH_VISITORS = 10_000;

/** 10 000 visitors with varied contexts and no assignments. */
export const benchVisitors = (): EngineVisitor[] => {
  const plans = ['free', 'gold', 'premium', 'business'];
  const countries = ['fr', 'us', 'de', 'es', 'it', 'gb'];
  const versions = ['1.2.0', '1.10.0', '2.0.0', '2.1.3', '3.0.0-beta.1'];
  const domains = ['shop.io', 'mail.com', 'example.org'];
  return Array.from({ length: BENCH_VISITORS }, (_, i) => ({
    id: `visitor-${(i * 2654435761) >>> 0}`,
    context: {
      plan: plans[i % 4] ?? 'free',
      country: countries[i % 6] ?? 'fr',
      age: 18 + (i % 53),
      email: `user${i}@${domains[i % 3] ?? 'shop.io'}`,
      appVersion: versions[i % 5] ?? '1.2.0',
      vip: i % 7 === 0,
    },
    assignments: {},
  }));
};
