import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';

/**
 * The elements' base: a custom element that hosts lit reactive controllers (`@lit/context`'s provider and
 * consumers, the store controller) and batches its updates into one microtask, with its properties stored in
 * its attributes. It stands in for lit's `ReactiveElement`, whose general machinery (property declarations,
 * reflection, styles) costs about 2.5 KB min+gzip of the 20 KB a page may load before its first variation
 * renders; these three elements need none of it.
 */
export abstract class FeatureElement extends HTMLElement implements ReactiveControllerHost {
  readonly #controllers = new Set<ReactiveController>();
  #changed = new Set<string>();
  #pending: Promise<boolean> | null = null;

  /** Resolves after the pending update (at once when none is pending). */
  get updateComplete(): Promise<boolean> {
    return this.#pending ?? Promise.resolve(true);
  }

  addController(controller: ReactiveController): void {
    this.#controllers.add(controller);
    if (this.isConnected) controller.hostConnected?.();
  }

  removeController(controller: ReactiveController): void {
    this.#controllers.delete(controller);
  }

  /** Schedules one update for every change made in this task; `name` records what changed. */
  requestUpdate(name?: string): void {
    if (name !== undefined) this.#changed.add(name);
    this.#pending ??= Promise.resolve().then(() => {
      this.#pending = null;
      const changed = this.#changed;
      this.#changed = new Set();
      if (this.isConnected) this.update(changed);
      return true;
    });
  }

  connectedCallback(): void {
    for (const controller of this.#controllers) controller.hostConnected?.();
    this.requestUpdate();
  }

  disconnectedCallback(): void {
    for (const controller of this.#controllers) controller.hostDisconnected?.();
  }

  attributeChangedCallback(name: string, before: string | null, after: string | null): void {
    if (before !== after) this.requestUpdate(name);
  }

  /** Brings the element up to date with its attributes and state; `changed` names the attributes that changed. */
  protected abstract update(changed: ReadonlySet<string>): void;

  /** Sets attribute `name` to `value`, or removes it for null and undefined (properties mirror attributes). */
  protected setText(name: string, value: string | number | null | undefined): void {
    if (value === null || value === undefined) this.removeAttribute(name);
    else this.setAttribute(name, String(value));
  }

  /** Attribute `name` as a number, or undefined when absent (NaN when it is not a number). */
  protected numberOf(name: string): number | undefined {
    const text = this.getAttribute(name);
    return text === null ? undefined : text.trim() === '' ? Number.NaN : Number(text);
  }
}
