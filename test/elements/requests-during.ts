// Watches every way a page sends (fetch, XHR, beacons, event streams) while a test runs, and reads the
// browser's own resource timing as an independent witness: the tests of forced flags (feature-ts/testing, QA
// forcing) assert that nothing at all left the page.

/** Every request the page starts while `run` runs, by the API that started it. */
export const requestsDuring = async (run: () => Promise<void>): Promise<string[]> => {
  const seen: string[] = [];
  // The originals, put back as they were (unbound: they are called with their own `this` below).
  const saved = {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as is
    fetch: window.fetch,
    beacon: navigator.sendBeacon.bind(navigator),
    // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as is, called with the request's `this`
    open: XMLHttpRequest.prototype.open,
    EventSource: window.EventSource,
  };
  window.fetch = (input, init) => {
    seen.push(`fetch ${String(input instanceof Request ? input.url : input)}`);
    return saved.fetch.call(window, input, init);
  };
  navigator.sendBeacon = (url, data) => {
    seen.push(`beacon ${String(url)}`);
    return saved.beacon(url, data);
  };
  XMLHttpRequest.prototype.open = function open(this: XMLHttpRequest, ...args: [string, string | URL]) {
    seen.push(`xhr ${String(args[1])}`);
    Reflect.apply(saved.open, this, args);
  };
  window.EventSource = class extends saved.EventSource {
    constructor(url: string | URL, init?: EventSourceInit) {
      seen.push(`event stream ${String(url)}`);
      super(url, init);
    }
  };
  const before = performance.getEntriesByType('resource').length;
  try {
    await run();
  } finally {
    Object.assign(window, { fetch: saved.fetch, EventSource: saved.EventSource });
    navigator.sendBeacon = saved.beacon;
    XMLHttpRequest.prototype.open = saved.open;
  }
  // Module loads (the hit builders' chunk) are scripts; anything else the page asked for is a request.
  const sent = performance
    .getEntriesByType('resource')
    .slice(before)
    .filter((e) => (e as PerformanceResourceTiming).initiatorType !== 'script')
    .map((e) => `${(e as PerformanceResourceTiming).initiatorType} ${e.name}`);
  return [...seen, ...sent];
};
