// The demo shop's flags through OpenFeature: the SDK started as an application starts it, FeatureWebProvider set
// as OpenFeature's provider, and every value read through OpenFeature's client (synchronous, from the flags
// fetched at initialize). Live updates are on: a toggle in the console reaches this page as a
// ConfigurationChanged event, and the page renders again. The button sends `track('add_to_cart')`: an EVENT hit,
// a goal of the checkout-button campaign's report.
import { OpenFeature, ProviderEvents } from '@openfeature/web-sdk';
import { ConfigBuilder, Feature } from 'feature-ts';
import { FeatureWebProvider } from 'feature-ts/openfeature';
import { loadDemoConfig } from '../framework/demo-config.js';

const element = (id: string): HTMLElement => {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`index.html has no #${id}`);
  return found;
};

const status = element('status');
const banner = element('banner');
const buy = element('buy') as HTMLButtonElement;
const sent = element('sent');
const flags = element('flags');

/** Shows the flags as OpenFeature's client reads them now (each read is an exposure, counted once per variation). */
const render = (): void => {
  const client = OpenFeature.getClient();
  const showBanner = client.getBooleanValue('showBanner', false);
  banner.hidden = !showBanner;
  banner.textContent = client.getStringValue('bannerText', '');
  const text = client.getStringDetails('btnText', 'Add to cart');
  buy.textContent = text.value;
  buy.style.background = client.getStringValue('btnColor', '#57606a');
  buy.disabled = false;
  flags.replaceChildren(
    ...[
      [
        'btnText',
        `${text.value} (${text.reason}${text.variant === undefined ? '' : `, variant ${text.variant}`})`,
      ],
      ['showBanner', String(showBanner)],
    ].flatMap(([key, value]) => {
      const term = document.createElement('dt');
      term.textContent = key ?? '';
      const detail = document.createElement('dd');
      detail.textContent = value ?? '';
      return [term, detail];
    }),
  );
};

const main = async (): Promise<void> => {
  const config = await loadDemoConfig();
  if ('message' in config) {
    status.textContent = `${config.message} Start the server with npm start (it seeds a demo environment).`;
    return;
  }
  await Feature.start(
    config.envId,
    config.apiKey,
    new ConfigBuilder().withServerUrl(location.origin).withLiveUpdates(true).build(),
  );
  await OpenFeature.setContext({ targetingKey: `of-demo-${crypto.randomUUID()}` });
  OpenFeature.addHandler(ProviderEvents.ConfigurationChanged, render);
  await OpenFeature.setProviderAndWait(
    new FeatureWebProvider({ instance: Feature.instance(), hasConsented: true }),
  );
  status.textContent = `Ready: environment ${config.envId}, visitor ${String(OpenFeature.getContext().targetingKey)}.`;
  render();
  let clicks = 0;
  buy.addEventListener('click', () => {
    OpenFeature.getClient().track('add_to_cart', { value: 1 });
    clicks += 1;
    sent.textContent = `track('add_to_cart') sent ${clicks} ${clicks === 1 ? 'time' : 'times'} (an EVENT hit).`;
  });
};

main().catch((error: unknown) => {
  status.textContent = `OpenFeature could not start: ${String(error)}`;
});
