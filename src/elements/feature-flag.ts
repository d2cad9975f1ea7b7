import { ReactiveElement, type PropertyValues } from '@lit/reactive-element';
import type { ExposureDetail } from './client-context.js';
import { ClientController } from './client-controller.js';
import { numberProperty, textProperty, type PropertiesOf } from './element-properties.js';
import { emit, reportOnce, type FeatureErrorReason } from './events.js';
import {
  FLAG_TYPES,
  inferType,
  parseDefault,
  shownValue,
  textOf,
  type FlagType,
  type ShownValue,
} from './flag-value.js';
import { renderInPlace } from './render-in-place.js';
import { watchUntilSeen } from './visibility.js';

/** When a flag reports its exposure. */
export type ExposureMode = 'visible' | 'render' | 'manual';

/** True when a provider is above `node`, across shadow roots: the flag then waits for it to upgrade. */
const hasProviderAbove = (node: Node): boolean => {
  for (let n: Node | null = node.parentNode; n !== null; n = n instanceof ShadowRoot ? n.host : n.parentNode)
    if (n instanceof Element && n.localName === 'feature-provider') return true;
  return false;
};

/**
 * Shows a flag's value for the provider's visitor: as text, or the matching `<template>` child, stamped into
 * light DOM so the page's CSS styles it. A template matches by variation (`variation="Green"`, id or name),
 * else by value (`value="green"`, the value's text), else `<template fallback>` applies; with no template
 * child the value is shown as text.
 *
 * While flags are unknown (no bootstrap, no kept copy, fetch under way) it shows its `slot="loading"` child, or
 * keeps the default's space invisible, with `aria-busy="true"`: never a wrong variation. After the provider's
 * timeout the default is shown. The exposure is reported once per page view and variation, only after at least
 * half of the element has been in view for `exposure-delay` ms in a visible tab.
 *
 * @summary Renders a flag's variation and reports its exposure when seen.
 * @attr {string} key - The flag key.
 * @attr {string} flag - The flag key, where a framework keeps `key` for itself (React).
 * @attr {string} default - The value shown when the flag is missing, its type differs, or the SDK is in panic.
 * @attr {'string' | 'boolean' | 'number' | 'json'} type - `string`, `boolean`, `number` or `json`; absent: inferred from `default` (true/false → boolean, a number → number, `{…}`/`[…]` → json, else string).
 * @attr {'visible' | 'render' | 'manual'} exposure - `visible` (default: once seen), `render` (once shown) or `manual` (`reportExposure()`).
 * @attr {number} exposure-delay - Milliseconds at least half of the element must stay in view; default 1000.
 * @slot loading - Shown while the flags are unknown.
 * @fires {CustomEvent<FeatureChangeDetail>} feature-change - The value shown changed.
 * @fires {CustomEvent<ExposureDetail>} feature-exposed - The exposure of the variation shown was reported.
 * @fires {CustomEvent<FeatureErrorDetail>} feature-error - A wrong attribute, or no provider around the flag.
 */
export class FeatureFlag extends ReactiveElement {
  /** @internal The attribute-backed properties (lit's declarations), one entry per field below. */
  static override properties = {
    key: { attribute: 'key' },
    flag: textProperty('flag'),
    default: textProperty('default'),
    type: textProperty('type'),
    exposure: textProperty('exposure'),
    exposureDelay: numberProperty('exposure-delay'),
  } satisfies PropertiesOf<FeatureFlag>;

  /** The flag key, where a framework keeps `key` for itself (`flag`); `key` reads it when no `key` is set. */
  declare flag: string | null;
  /** The default, as the `default` attribute's text. */
  declare default: string | null;
  /** The declared type (`type`); null: inferred from `default`. */
  declare type: string | null;
  /** `visible` (default), `render` or `manual` (`exposure`). */
  declare exposure: string | null;
  /** Milliseconds in view before the exposure is reported (`exposure-delay`, default 1000). */
  declare exposureDelay: number | undefined;

  #key: string | null = null;

  /** The flag key (`key`, or `flag` where a framework keeps `key` for itself, as React does). */
  get key(): string {
    return this.#key ?? this.flag ?? '';
  }
  set key(value: string | null) {
    this.#key = value;
    // Written to the attribute here, not by lit's reflection, which would write the `flag` fallback read above.
    if (value === null) this.removeAttribute('key');
    else if (this.getAttribute('key') !== value) this.setAttribute('key', value);
  }

  readonly #client = new ClientController(this, ['$flags', '$ready', '$consent']);
  readonly #reported = new Set<string>();
  #shown: ShownValue | null = null;
  #choice: Element | null | undefined;
  #rendered: Node[] = [];
  #exposed = new Set<string>();
  #stopWatching: (() => void) | undefined;
  /** The variation whose exposure is watched for (or being reported), so a re-render does not restart it. */
  #watching: string | null = null;

  constructor() {
    super();
    this.flag = this.default = this.type = this.exposure = null;
  }

  /** The value shown now (the variation's, or the default). */
  get value(): unknown {
    return this.#shown?.value ?? this.#typed().value;
  }

  /**
   * Reports the exposure of the variation shown now (for `exposure="manual"`, or a conversion inside the flag);
   * resolves once it is queued. Nothing is reported for a default, or twice for one variation.
   */
  async reportExposure(): Promise<void> {
    const shown = this.#shown;
    const client = this.#client.value;
    if (shown?.variationId == null || client === undefined || this.#exposed.has(shown.variationId)) return;
    this.#exposed.add(shown.variationId);
    const { type, value } = this.#typed();
    const detail: ExposureDetail | null = await client.expose(
      this.key,
      type === 'json' ? null : value,
      shown.variationId,
    );
    if (detail !== null) emit(this, 'feature-exposed', detail);
    else {
      // Not reported (no consent yet, or the variation changed): the next update watches again.
      this.#exposed.delete(shown.variationId);
      if (this.#watching === shown.variationId) this.#watching = null;
    }
  }

  /** Light DOM: the variation's content is stamped into the page, so the page's CSS styles it. */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Render again after a move (disconnecting stopped the exposure watch).
    this.requestUpdate();
    if (!hasProviderAbove(this)) {
      this.#problem(
        'no-provider',
        `key="${this.key}" has no <feature-provider> around it: the default is shown.`,
      );
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stopWatching?.();
    this.#stopWatching = undefined;
    // Moved in the page: a variation shown but not yet seen is watched again once reconnected.
    this.#watching = null;
  }

  /** Renders the variation (or the default, or the loading state) and watches for its exposure. */
  protected override update(changed: PropertyValues<this>): void {
    super.update(changed);
    if (!this.isConnected) return;
    const client = this.#client.value;
    const loading = client === undefined ? hasProviderAbove(this) : !client.$ready.get();
    const typed = this.#typed();
    const shown = loading ? null : shownValue(client?.$flags.get(), this.key, typed.type, typed.value);
    this.toggleAttribute('aria-busy', loading);
    if (loading) this.setAttribute('aria-busy', 'true');
    const loadingContent = this.querySelector(':scope > [slot="loading"]');
    if (loadingContent instanceof HTMLElement) loadingContent.hidden = !loading;
    // No loading content: the default keeps the flag's space, invisible, so nothing around it moves.
    this.style.visibility = loading && loadingContent === null ? 'hidden' : '';
    this.#render(
      shown ?? { value: typed.value, variationId: null, variationName: null },
      loading && loadingContent !== null,
    );
    if (loading) return;
    const before = this.#shown;
    this.#shown = shown;
    if (
      shown !== null &&
      (before === null || before.variationId !== shown.variationId || before.value !== shown.value)
    ) {
      emit(this, 'feature-change', { key: this.key, value: shown.value, variationId: shown.variationId });
    }
    this.#watchExposure();
  }

  /** The declared (or inferred) type and the parsed default; a wrong attribute is reported once. */
  #typed(): { type: FlagType; value: unknown } {
    let type = inferType(this.default);
    if (this.type !== null) {
      if ((FLAG_TYPES as readonly string[]).includes(this.type)) type = this.type as FlagType;
      else this.#problem('invalid-attribute', `type="${this.type}" is not one of ${FLAG_TYPES.join(', ')}.`);
    }
    const { value, problem } = parseDefault(this.default, type);
    if (problem !== null) this.#problem('invalid-attribute', `key="${this.key}": ${problem}.`);
    return { type, value };
  }

  /**
   * Puts the content for `shown` in place: nothing changes when the choice did not, and another choice keeps the
   * nodes both have (render-in-place.ts). Focus in a node that went moves to the new node of the same id.
   */
  #render(shown: ShownValue, hide: boolean): void {
    const templates = [...this.querySelectorAll(':scope > template')];
    const text = textOf(shown.value);
    const choice = hide
      ? null
      : templates.length === 0
        ? undefined
        : (templates.find((t) => {
            const v = t.getAttribute('variation');
            return (
              v !== null &&
              shown.variationId !== null &&
              (v === shown.variationId || v === shown.variationName)
            );
          }) ??
          templates.find((t) => t.getAttribute('value') === text) ??
          templates.find((t) => t.hasAttribute('fallback')) ??
          null);
    if (choice !== undefined && choice === this.#choice) return;
    const active = document.activeElement;
    const focused = active !== null && this.contains(active) ? active : null;
    this.#choice = choice;
    this.#rendered = renderInPlace(
      this,
      this.#rendered,
      choice === undefined
        ? [document.createTextNode(text)]
        : choice instanceof HTMLTemplateElement
          ? // A template built with createElement/appendChild (JSX) holds its nodes as children, not content.
            [
              ...document.importNode(choice.content.hasChildNodes() ? choice.content : choice, true)
                .childNodes,
            ]
          : [],
    );
    const twin = focused?.isConnected === false && document.getElementById(focused.id);
    if (twin && this.contains(twin)) twin.focus();
  }

  /**
   * Starts watching for the exposure of the variation shown, unless it is watched already, was reported, or the
   * visitor has not consented (nothing could be sent; the watch starts once consent is given).
   */
  #watchExposure(): void {
    const id = this.#shown?.variationId ?? null;
    const wanted =
      id !== null && !this.#exposed.has(id) && this.#client.value?.$consent.get() === true ? id : null;
    if (wanted === this.#watching) return;
    this.#stopWatching?.();
    this.#stopWatching = undefined;
    this.#watching = wanted;
    if (wanted === null) return;
    const mode = this.exposure ?? 'visible';
    if (mode === 'render') void this.reportExposure();
    else if (mode === 'visible') {
      const delay = this.exposureDelay ?? 1000;
      this.#stopWatching = watchUntilSeen(this, Number.isFinite(delay) && delay >= 0 ? delay : 1000, () => {
        this.#stopWatching = undefined;
        void this.reportExposure();
      });
    } else if (mode !== 'manual')
      this.#problem('invalid-attribute', `exposure="${mode}" is not visible, render or manual.`);
  }

  #problem(reason: FeatureErrorReason, message: string): void {
    reportOnce(this, this.#reported, reason, message);
  }
}
