// The React shop: state in React (the settings, the log), the SDK in <feature-provider>, whose props the
// settings drive; components below it read the provider's atoms through ClientContext.
import { useCallback, useEffect, useMemo, useRef, useState, type JSX } from 'react';
import type { ExposureDetail, FeatureErrorDetail, FeatureProvider } from '../../src/elements/index.js';
import { ClientContext } from './client-context.js';
import { loadDemoConfig, type DemoConfig } from './demo-config.js';
import { Shop } from './shop.js';
import { Controls, VisitorState, type LogEntry, type VisitorSettings } from './visitor-panel.js';

const INITIAL: VisitorSettings = { mode: 'api', plan: 'free', consent: true };

/** The page. */
export const App = (): JSX.Element => {
  const [config, setConfig] = useState<DemoConfig | null>(null);
  const [settings, setSettings] = useState<VisitorSettings>(INITIAL);
  const [provider, setProvider] = useState<FeatureProvider | null>(null);
  const [log, setLog] = useState<readonly LogEntry[]>([]);
  const [cart, setCart] = useState('');
  const lastId = useRef(0);

  useEffect(() => {
    void loadDemoConfig().then(setConfig);
  }, []);

  const add = useCallback((kind: string, text: string) => {
    const entry = { id: ++lastId.current, kind, time: new Date().toLocaleTimeString(), text };
    setLog((entries) => [entry, ...entries].slice(0, 60));
  }, []);
  // A new object only when the plan changes: the provider compares contexts anyway, this spares it the work.
  const context = useMemo(() => ({ plan: settings.plan }), [settings.plan]);

  const onExposed = (event: CustomEvent<ExposureDetail>): void => {
    const { key, campaignId, variationName } = event.detail;
    const campaign = provider?.client.$flags.get().get(key)?.metadata.campaignName ?? campaignId;
    add('exposure', `${key}: ${campaign} / ${variationName}`);
  };
  const onError = (event: CustomEvent<FeatureErrorDetail>): void => add('error', event.detail.message);
  const onAdd = (): void => {
    setCart('Added to cart (add_to_cart event).');
    add('hit', `event add_to_cart ${settings.consent ? 'queued' : 'not sent: no consent'}`);
  };

  if (config === null) return <p className="page">Loading the demo environment…</p>;
  const ids = 'envId' in config ? config : null;
  return (
    <>
      <header>
        <h1>Demo shop in React</h1>
        <a href="/">The same shop in plain HTML</a>
      </header>
      <div className="page">
        <main>
          {ids === null && (
            <p className="notice" role="status">
              {'message' in config ? config.message : ''} Start the server with <code>npm start</code> (it
              seeds one), or open this page as <code>/demo/framework/?env=ID&amp;key=KEY</code>. Until then
              every flag shows its default.
            </p>
          )}
          <feature-provider
            ref={setProvider}
            env-id={ids?.envId}
            api-key={ids?.apiKey}
            mode={settings.mode}
            consent={settings.consent}
            context={context}
            onfeature-exposed={onExposed}
            onfeature-error={onError}
          >
            <feature-hit type="screen" location="react-shop" />
            {provider !== null && (
              <ClientContext value={provider.client}>
                <Shop onAdd={onAdd} cart={cart} />
              </ClientContext>
            )}
          </feature-provider>
          <section className="card" aria-labelledby="about-title">
            <h2 id="about-title">How this page works</h2>
            <p>
              A React 19 app bundled by Vite with the tags from the package's source. React state drives the
              provider's props (<code>mode</code>, <code>consent</code>, <code>context</code>); components
              read the provider's nanostores atoms (<code>client.$flags</code>, <code>$ready</code>,{' '}
              <code>$flagStatus</code>, <code>$status</code>) with <code>useStore</code> from{' '}
              <code>@nanostores/react</code>; <code>&lt;feature-flag&gt;</code> tags show the banner text, the
              discount and the button text and report their exposures when seen;{' '}
              <code>&lt;feature-hit&gt;</code> sends the <code>add_to_cart</code> goal.
            </p>
          </section>
        </main>
        <aside aria-label="Visitor and SDK">
          <Controls settings={settings} onChange={setSettings} />
          {provider !== null && (
            <ClientContext value={provider.client}>
              <VisitorState log={log} />
            </ClientContext>
          )}
        </aside>
      </div>
    </>
  );
};
