import { ContextConsumer } from '@lit/context';
import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';
import { featureClientContext, type FeatureClient } from './client-context.js';

/** The atoms of a `FeatureClient` a host can re-render on. */
export type ClientAtom = '$flags' | '$ready' | '$flagStatus' | '$status' | '$consent';

/**
 * Binds a host to the client of the `<feature-provider>` around it: it asks for the client with a
 * `context-request` event (through `@lit/context`'s `ContextConsumer`, subscribed, so a provider that upgrades
 * later or is replaced still reaches it), and re-renders the host when the client changes or when one of the
 * atoms the host named changes. The host reads the atoms' values from `value` in its update.
 *
 * Atoms are listened to only while the host is connected, and bound again when the provider hands another
 * client: a flag moved into another provider follows that provider's visitor.
 */
export class ClientController implements ReactiveController {
  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #atoms: readonly ClientAtom[];
  #client: FeatureClient | undefined;
  #stops: Array<() => void> = [];
  #connected = false;

  /** Binds `host` to its provider's client and re-renders it on changes of `atoms`. */
  constructor(host: ReactiveControllerHost & HTMLElement, atoms: readonly ClientAtom[]) {
    this.#host = host;
    this.#atoms = atoms;
    host.addController(this);
    // Added after this controller, so a reconnected host listens before its provider answers again.
    new ContextConsumer(host, {
      context: featureClientContext,
      subscribe: true,
      callback: (client) => this.#bind(client),
    });
  }

  /** The provider's client, or undefined while no provider answered. */
  get value(): FeatureClient | undefined {
    return this.#client;
  }

  /** Listens to the named atoms of the client (lit calls it when the host connects). */
  hostConnected(): void {
    this.#connected = true;
    this.#listen();
  }

  /** Stops listening: a detached host holds no subscription (lit calls it when the host disconnects). */
  hostDisconnected(): void {
    this.#connected = false;
    this.#unlisten();
  }

  #bind(client: FeatureClient | undefined): void {
    if (client === this.#client) return;
    this.#unlisten();
    this.#client = client;
    if (this.#connected) this.#listen();
    this.#host.requestUpdate();
  }

  #listen(): void {
    const client = this.#client;
    if (client === undefined || this.#stops.length > 0) return;
    // `listen`, not `subscribe`: the host reads the current values in its update, so no call is needed now.
    this.#stops = this.#atoms.map((name) => client[name].listen(() => this.#host.requestUpdate()));
  }

  #unlisten(): void {
    for (const stop of this.#stops.splice(0)) stop();
  }
}
