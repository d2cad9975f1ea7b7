// "Seen" as display advertising measures it (the IAB/MRC viewable impression): at least half of the box in the
// viewport, continuously for a delay, while the tab is visible. A box too large for half of it ever to fit
// counts when it covers half of the viewport. Hidden tabs, prerendered pages, `display:none` and zero-size
// boxes are never seen.

interface PrerenderingDocument {
  prerendering?: boolean;
}

const inPrerender = (): boolean => (document as Document & PrerenderingDocument).prerendering === true;

/** True when an intersection entry shows enough of the box (half of it, or half of the viewport). */
const enoughInView = (entry: IntersectionObserverEntry): boolean => {
  const box = entry.boundingClientRect;
  if (!entry.isIntersecting || box.width * box.height === 0) return false;
  if (entry.intersectionRatio >= 0.5) return true;
  const root = entry.rootBounds;
  const seen = entry.intersectionRect;
  return root !== null && seen.width * seen.height >= 0.5 * root.width * root.height;
};

/** The timers the exposure delay runs on. */
export interface ExposureClock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const pageClock: ExposureClock = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

let clock = pageClock;

/**
 * Runs the exposure delays on `replacement` (null: the page's timers again). For tests: they advance the delay
 * themselves instead of sleeping through it, which on a loaded machine proves nothing.
 */
export const useExposureClock = (replacement: ExposureClock | null): void => {
  clock = replacement ?? pageClock;
};

/**
 * Calls `onSeen` once, after `element` has been seen for `delayMs` without interruption; returns a function
 * that stops watching. Any interruption (scrolled away, tab hidden) restarts the delay.
 */
export const watchUntilSeen = (element: Element, delayMs: number, onSeen: () => void): (() => void) => {
  // The clock of the watch's start: a test that swaps clocks later still clears this watch's timer.
  const timers = clock;
  let inView = false;
  let timer: unknown;
  const check = (): void => {
    const seen = inView && document.visibilityState === 'visible' && !inPrerender();
    if (seen && timer === undefined)
      timer = timers.setTimeout(() => {
        stop();
        onSeen();
      }, delayMs);
    else if (!seen && timer !== undefined) {
      timers.clearTimeout(timer);
      timer = undefined;
    }
  };
  // Thresholds 0 and 0.5 notify on entering, leaving and crossing half; the small steps catch a large box
  // growing towards half of the viewport.
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) inView = enoughInView(entry);
      check();
    },
    { threshold: [0, 0.1, 0.2, 0.3, 0.4, 0.5] },
  );
  observer.observe(element);
  document.addEventListener('visibilitychange', check);
  document.addEventListener('prerenderingchange', check);
  const stop = (): void => {
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
    observer.disconnect();
    document.removeEventListener('visibilitychange', check);
    document.removeEventListener('prerenderingchange', check);
  };
  return stop;
};
