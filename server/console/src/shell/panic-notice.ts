// The warning above every screen while the chosen environment is in panic mode (every visitor gets the defaults,
// whatever its campaigns say), with the way to turn it off. Apart from the shell (console-app.ts) because it is
// about the environment, not about signing in or the layout.
import { html, nothing, type TemplateResult } from 'lit';
import { routeHash } from '../router.js';
import type { Environment } from '../types.js';

/** The warning when `environment` is in panic mode; nothing otherwise. */
export const panicNotice = (environment: Environment | null): TemplateResult | typeof nothing =>
  environment?.panic === true
    ? html`<p class="notice danger">
        Panic mode is on in ${environment.name}: every visitor gets the defaults.
        <a href=${routeHash({ name: 'environments' })}>Turn it off in API Key &amp; Settings</a>.
      </p>`
    : nothing;
