import type { ReactiveController, ReactiveControllerHost } from 'lit';

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
  #upgraded = false;

  /** Resolves after the pending update (at once when none is pending). */
  get updateComplete(): Promise<boolean> {
    return this.#pending ?? Promise.resolve(true);
  }

  /** Adds a lit reactive controller; it is connected at once when the element is in the page. */
  addController(controller: ReactiveController): void {
    this.#controllers.add(controller);
    if (this.isConnected) controller.hostConnected?.();
  }

  /** Removes a controller added with `addController`. */
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
    if (!this.#upgraded) {
      this.#upgraded = true;
      // Properties a page set before the tag was defined sit on the instance and hide the accessors: assign them
      // again through the accessors (done here, not in the constructor, where subclass fields are not ready).
      for (const name of Object.keys(this)) {
        const value: unknown = Reflect.get(this, name);
        Reflect.deleteProperty(this, name);
        Reflect.set(this, name, value);
      }
    }
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
}

/** How a property reads its attribute: text (null when absent), number (undefined when absent), presence. */
export type AttributeKind = 'text' | 'number' | 'boolean';

/**
 * Defines properties on `element`'s prototype that read and write attributes (`apiKey` ↔ `api-key`); returns
 * the attribute names, for `observedAttributes`. One definition instead of a getter and a setter per property:
 * the elements have twenty of them, and every byte counts before the first render.
 */
export const attributeProperties = (
  element: { prototype: HTMLElement },
  kinds: Record<string, AttributeKind>,
): string[] =>
  Object.entries(kinds).map(([property, kind]) => {
    const name = property.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    Object.defineProperty(element.prototype, property, {
      configurable: true,
      get(this: HTMLElement): unknown {
        if (kind === 'boolean') return this.hasAttribute(name);
        const text = this.getAttribute(name);
        if (kind === 'text') return text;
        return text === null ? undefined : text.trim() === '' ? Number.NaN : Number(text);
      },
      set(this: HTMLElement, value: string | number | boolean | null | undefined): void {
        if (kind === 'boolean') this.toggleAttribute(name, value === true);
        else if (value === null || value === undefined) this.removeAttribute(name);
        else this.setAttribute(name, String(value));
      },
    });
    return name;
  });
