// The floor under failed credential checks (the token route, the console's sign-in, the operator key in a
// Bearer header): a wrong secret is answered no sooner than a fixed time after the request arrived, so its
// timing tells nothing and guessing is slow.

/**
 * How long a failed credential check takes at least, on every route that checks one. The token route's
 * unknown client id and wrong secret already take the same path (token-service.ts), but the store reads a row
 * for one and none for the other; the floor makes the remaining difference unmeasurable, and slows guessing.
 */
export const CREDENTIAL_FAILURE_FLOOR_MS = 10;

/**
 * Resolves once `ms` have passed since `started` (a `performance.now()` reading). One timer is not enough:
 * Node's timers count whole milliseconds on a clock read once per turn of the event loop, so by
 * `performance.now()` they may fire up to a millisecond early; it waits again for what is left.
 */
export const noSoonerThan = async (started: number, ms: number): Promise<void> => {
  for (let left = started + ms - performance.now(); left > 0; left = started + ms - performance.now())
    await new Promise((resolve) => setTimeout(resolve, Math.ceil(left)));
};
