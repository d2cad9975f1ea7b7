import type {
  AnyProviderEvent,
  EventContext,
  EventHandler,
  Logger,
  ProviderEventEmitter,
} from '@openfeature/core';

/**
 * The event emitter a provider hands OpenFeature (`provider.events`). OpenFeature's own
 * `OpenFeatureEventEmitter` lives in each SDK package; this one needs neither, so the providers import only
 * types from OpenFeature (openfeature-names.ts says why). The SDKs only add, remove and list handlers, and the
 * provider emits: that is all it does. A handler that throws or rejects is logged, and the others still run.
 */
export class ProviderEvents<E extends AnyProviderEvent> implements ProviderEventEmitter<E> {
  readonly #handlers = new Map<AnyProviderEvent, EventHandler[]>();
  #logger: Logger | undefined;

  /** Calls the handlers of `eventType` with `context`, in the order they were added. */
  emit(eventType: E, context?: EventContext): void {
    for (const handler of [...(this.#handlers.get(eventType) ?? [])]) {
      try {
        const result = handler(context as Parameters<EventHandler>[0]);
        if (result instanceof Promise) result.catch((error: unknown) => this.#failed(eventType, error));
      } catch (error) {
        this.#failed(eventType, error);
      }
    }
  }

  /** Adds a handler (OpenFeature's SDK calls this when the provider is set). */
  addHandler(eventType: AnyProviderEvent, handler: EventHandler): void {
    this.#handlers.set(eventType, [...(this.#handlers.get(eventType) ?? []), handler]);
  }

  /** Removes a handler. */
  removeHandler(eventType: AnyProviderEvent, handler: EventHandler): void {
    this.#handlers.set(
      eventType,
      (this.#handlers.get(eventType) ?? []).filter((h) => h !== handler),
    );
  }

  /** Removes every handler of `eventType`, or of every event without it. */
  removeAllHandlers(eventType?: AnyProviderEvent): void {
    if (eventType === undefined) this.#handlers.clear();
    else this.#handlers.delete(eventType);
  }

  /** The handlers of `eventType`. */
  getHandlers(eventType: AnyProviderEvent): EventHandler[] {
    return [...(this.#handlers.get(eventType) ?? [])];
  }

  /** The logger a handler's failure is written to (OpenFeature's SDK sets its own). */
  setLogger(logger: Logger): this {
    this.#logger = logger;
    return this;
  }

  #failed(eventType: AnyProviderEvent, error: unknown): void {
    this.#logger?.error(`an OpenFeature ${eventType} handler failed: ${String(error)}`);
  }
}
