import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';
import type { ReadableAtom } from 'nanostores';

/**
 * Binds a nanostores atom to a lit host: the host re-renders on every change while connected. The atom can be
 * set later (a provider's client arrives through context after connection) or replaced.
 */
export class StoreController<T> implements ReactiveController {
  #atom: ReadableAtom<T> | undefined;
  #stop: (() => void) | undefined;
  #connected = false;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  /** The atom's value now, or undefined while none is bound. */
  get value(): T | undefined {
    return this.#atom?.get();
  }

  /** Binds `atom` (or nothing) in place of the current one. */
  bind(atom: ReadableAtom<T> | undefined): void {
    if (atom === this.#atom) return;
    this.#unsubscribe();
    this.#atom = atom;
    if (this.#connected) this.#subscribe();
    this.host.requestUpdate();
  }

  hostConnected(): void {
    this.#connected = true;
    this.#subscribe();
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#unsubscribe();
  }

  #subscribe(): void {
    // `listen`, not `subscribe`: the current value is read in render, so no call is needed now.
    this.#stop = this.#atom?.listen(() => this.host.requestUpdate());
  }

  #unsubscribe(): void {
    this.#stop?.();
    this.#stop = undefined;
  }
}
