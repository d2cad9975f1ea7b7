// QA forcing on a live page: `<feature-provider qa>` with `?feature-qa=…` in the page URL shows the flags the
// parameter names, starts no SDK and sends nothing (no decision, no exposure, no hit), and says so on the console;
// without `qa` the parameter is ignored. The page's URL is changed in place (history.replaceState) for each test.
import { assert, fixture, html } from '@open-wc/testing';
import type {
  FeatureFlag,
  FeatureHit,
  FeatureProvider,
  FeatureReadyDetail,
} from '../../src/elements/index.js';
import { requestsDuring } from './requests-during.js';
import { checkout, makeProvider, newEnv, newVisitorId, readyOf, server, wire, type Env } from './support.js';

const FLAGS = `
  <feature-hit type="screen" location="/checkout"></feature-hit>
  <feature-flag key="btnColor" default="grey" exposure="render">
    <template variation="Blue"><feature-hit action="qa_click"><button>Blue</button></feature-hit></template>
    <template variation="Green"><button>Green</button></template>
    <template fallback><button>Fallback</button></template>
  </feature-flag>
  <feature-flag key="discount" default="0" exposure="render"></feature-flag>`;

/** Runs `run` with `query` added to the page's URL, then puts the URL back. */
const withQuery = async (query: Record<string, string>, run: () => Promise<void>): Promise<void> => {
  const before = location.href;
  const url = new URL(before);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  history.replaceState(null, '', url);
  try {
    await run();
  } finally {
    history.replaceState(null, '', before);
  }
};

/** What `console[level]` printed while `run` ran (and is not printed). */
const printedDuring = async (level: 'warn' | 'error', run: () => Promise<void>): Promise<string[]> => {
  const printed: string[] = [];
  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as is
  const saved = console[level];
  console[level] = (...args: unknown[]) => printed.push(args.map(String).join(' '));
  try {
    await run();
  } finally {
    console[level] = saved;
  }
  return printed;
};

const flagsOf = (provider: Element): FeatureFlag[] => [...provider.querySelectorAll('feature-flag')];

describe('<feature-provider qa>: QA forcing', () => {
  let env: Env;
  before(async () => {
    env = await newEnv([checkout()]);
  });

  it('forces the flags of ?feature-qa for the page view, sends nothing and logs the forced flags', async () => {
    const provider = await makeProvider({ env, visitorId: newVisitorId('qa'), content: FLAGS });
    provider.setAttribute('qa', '');
    const exposed: unknown[] = [];
    provider.addEventListener('feature-exposed', (e) => exposed.push(e.detail));
    let ready: FeatureReadyDetail | undefined;
    const warnings = await printedDuring('warn', async () => {
      const requests = await requestsDuring(() =>
        withQuery({ 'feature-qa': 'btnColor:red,discount:15', 'feature-qa-variation': 'Blue' }, async () => {
          const readyNow = readyOf(provider);
          await fixture(html`${provider}`);
          ready = (await readyNow) as FeatureReadyDetail;
          const [color, discount] = flagsOf(provider);
          await Promise.all([color?.updateComplete, discount?.updateComplete]);
          assert.strictEqual(provider.querySelector('button')?.textContent, 'Blue', 'the forced variation');
          assert.strictEqual(color?.value, 'red');
          assert.strictEqual(discount?.value, 15);
          // A click on the forced variation's hit, and its exposure: neither is sent nor announced.
          await provider.querySelector<FeatureHit>('feature-hit[action]')?.send();
          await color?.reportExposure();
        }),
      );
      assert.deepEqual(requests, [], 'nothing was requested');
    });
    assert.deepEqual(ready, { visitorId: provider.visitorId, source: 'forced' });
    assert.deepEqual(exposed, [], 'no feature-exposed: a page forwarding exposures forwards none');
    assert.strictEqual(provider.client.$consent.get(), false, 'forced: no consent, so nothing is counted');
    assert.lengthOf(warnings, 1);
    assert.include(warnings[0], 'btnColor = "red", discount = 15 (variation "Blue")');
    assert.include(warnings[0], 'Nothing is sent');
    // The server, the other witness, saw no request of this environment at all.
    assert.deepEqual(await wire(env.envId), []);
  });

  it('off by default: without qa the parameter is ignored and the live flags are fetched', async () => {
    const provider = await makeProvider({ env, visitorId: newVisitorId('no-qa'), content: FLAGS });
    const requests = await requestsDuring(() =>
      withQuery({ 'feature-qa': 'btnColor:red', 'feature-qa-variation': 'Blue' }, async () => {
        const readyNow = readyOf(provider);
        await fixture(html`${provider}`);
        assert.deepEqual(await readyNow, { visitorId: provider.visitorId ?? '', source: 'fetch' });
      }),
    );
    const [color] = flagsOf(provider);
    await color?.updateComplete;
    assert.strictEqual(color?.value, 'green', 'the server’s variation');
    assert.strictEqual(provider.querySelector('button')?.textContent, 'Green');
    const { proxyUrl } = await server();
    assert.ok(
      requests.some((r) => r.startsWith(`fetch ${proxyUrl}/v2/${env.envId}/campaigns`)),
      `the decision request was made (and seen by the watch): ${JSON.stringify(requests)}`,
    );
  });

  it('with qa but no parameter the provider is live; a parameter that does not parse forces nothing', async () => {
    const live = await makeProvider({ env, visitorId: newVisitorId('qa-live'), content: FLAGS });
    live.setAttribute('qa', '');
    const liveReady = readyOf(live);
    await fixture(html`${live}`);
    assert.strictEqual((await liveReady).source, 'fetch');

    // Another parameter whose name merely ends in feature-qa (a campaign tag, another tool's) forces nothing.
    const other = await makeProvider({ env, visitorId: newVisitorId('qa-other'), content: FLAGS });
    other.setAttribute('qa', '');
    await withQuery({ 'utm_feature-qa': 'btnColor:red', 'myfeature-qa': 'x' }, async () => {
      const otherReady = readyOf(other);
      await fixture(html`${other}`);
      assert.strictEqual((await otherReady).source, 'fetch', 'only ?feature-qa= itself forces');
    });

    const provider: FeatureProvider = await makeProvider({
      env,
      visitorId: newVisitorId('qa-bad'),
      content: FLAGS,
    });
    provider.setAttribute('qa', '');
    const errors = await printedDuring('error', () =>
      printedDuring('warn', () =>
        withQuery({ 'feature-qa': '{"btnColor":' }, async () => {
          const readyNow = readyOf(provider);
          await fixture(html`${provider}`);
          assert.strictEqual((await readyNow).source, 'forced');
        }),
      ).then(() => undefined),
    );
    assert.deepEqual(errors, [
      '<feature-provider qa>: ?feature-qa=…: {"btnColor": is not a JSON object such as {"headline":"B"}.',
    ]);
    const [color] = flagsOf(provider);
    await color?.updateComplete;
    assert.strictEqual(color?.value, 'grey', 'nothing forced: the default');
  });
});
