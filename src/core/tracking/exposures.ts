import { ExposedFlag, VisitorExposed, type OnVisitorExposed } from '../flags/exposure.js';
import type { Logger } from '../logger.js';
import type { FlagExposure, Tracker } from './tracker.js';

/** One activation a visitor object sent: a variation group and variation (PROTOCOL.md §4). */
interface Activation {
  acknowledged: boolean;
  /** Resolves once the activation is queued. */
  queued: Promise<void>;
  /** Flag keys whose callback has fired or waits for the acknowledgement. */
  notified: Set<string>;
  /** Callbacks waiting for the acknowledgement. */
  waiting: Array<() => void>;
}

/**
 * The exposures of one visitor object. Repeated reads do not inflate visits: one activation per variation
 * group and variation, the first time any of its flags is exposed; a later fetch that assigns another
 * variation makes a new one. The exposure callback fires once per flag key and variation, when the server
 * acknowledged the activation (at once if it already had). It lives in the tracking chunk: visitors reach
 * it through `Tracker.expose`, in call order with their hits.
 */
export class VisitorExposures {
  readonly #activations = new Map<string, Activation>();

  constructor(
    private readonly addActivation: Tracker['addActivation'],
    private readonly callback: OnVisitorExposed | undefined,
    private readonly logger: Logger,
  ) {}

  /** Reports the exposure; resolves once the activation is queued, never rejects. */
  expose({ visitor, context, entry, defaultValue }: FlagExposure): Promise<void> {
    const { variationGroupId, variationId } = entry.metadata;
    const id = `${variationGroupId}\n${variationId}`;
    let activation = this.#activations.get(id);
    if (activation === undefined) {
      const created: Activation = {
        acknowledged: false,
        queued: Promise.resolve(),
        notified: new Set(),
        waiting: [],
      };
      activation = created;
      this.#activations.set(id, created);
      created.queued = this.addActivation(
        visitor,
        { variationGroupId, variationId, flagKey: entry.key },
        () => {
          created.acknowledged = true;
          for (const fire of created.waiting.splice(0)) fire();
        },
      ).catch((error: unknown) => {
        // Not queued: forget it, so a later read may try again.
        this.#activations.delete(id);
        this.logger.error(`the exposure of flag "${entry.key}" was not queued: ${String(error)}`);
      });
    }
    const { callback } = this;
    if (callback !== undefined && !activation.notified.has(entry.key)) {
      activation.notified.add(entry.key);
      const exposed = new VisitorExposed(visitor.visitorId, visitor.anonymousId, context);
      const flag = new ExposedFlag(entry.key, entry.value, defaultValue, entry.metadata);
      const fire = (): void => {
        try {
          callback(exposed, flag);
        } catch (error) {
          this.logger.error(`the onVisitorExposed callback threw: ${String(error)}`);
        }
      };
      if (activation.acknowledged) fire();
      else activation.waiting.push(fire);
    }
    return activation.queued;
  }

  /** Forgets activations not yet acknowledged: consent withdrawn drops them from the pool (PROTOCOL.md §5.1). */
  dropUnacknowledged(): void {
    for (const [id, a] of this.#activations) if (!a.acknowledged) this.#activations.delete(id);
  }
}
