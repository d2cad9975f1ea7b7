import type { EventCategory } from '../status.js';
import { pickHitContent, validateHitContent, type FieldHitType } from './hit-fields.js';
import type { TrackedHit } from './tracker.js';

/** Optional parameters every hit takes (SPEC.md "Common optional parameters of every hit"). */
export interface HitCommonParams {
  userIp?: string;
  screenResolution?: string;
  userLanguage?: string;
  /** An integer ≥ 0. */
  sessionNumber?: number;
}

/** Parameters of a {@link Screen} hit. */
export interface ScreenParams extends HitCommonParams {
  /** The name of the screen (1-2048 characters). */
  location: string;
}

/** Parameters of a {@link Page} hit. */
export interface PageParams extends HitCommonParams {
  /** An absolute `http:` or `https:` URL (at most 2048 characters). */
  location: string;
}

/** Parameters of a {@link Transaction} hit; money fields are finite and ≥ 0. */
export interface TransactionParams extends HitCommonParams {
  transactionId: string;
  /** The transaction name: the goal name in reports. */
  affiliation: string;
  revenue?: number;
  shipping?: number;
  shippingMethod?: string;
  tax?: number;
  /** ISO 4217 code, three upper-case letters (`EUR`). */
  currency?: string;
  paymentMethod?: string;
  /** An integer. */
  itemCount?: number;
  couponCode?: string;
}

/** Parameters of an {@link Item} hit. */
export interface ItemParams extends HitCommonParams {
  transactionId: string;
  name: string;
  /** Item code or SKU. */
  code: string;
  /** Finite and ≥ 0. */
  price?: number;
  category?: string;
  /** An integer. */
  quantity?: number;
}

/** Parameters of an {@link Event} hit. */
export interface EventParams extends HitCommonParams {
  category: EventCategory;
  /** Must match the goal name of the campaign. */
  action: string;
  label?: string;
  /** An integer ≥ 0. */
  value?: number;
}

/**
 * A hit to send with `visitor.sendHit(hit)` (SPEC.md `HitProtocol`): one of {@link Screen}, {@link Page},
 * {@link Transaction}, {@link Item}, {@link Event}. The parameters become the hit's read-only properties: the
 * hit is frozen when built, so it is checked once, whoever asks first (`<feature-hit>` to report a problem,
 * or `sendHit`), and the verdict cannot go stale.
 */
export abstract class HitProtocol {
  /** The hit's cache and wire type (PROTOCOL.md §11). */
  declare readonly type: FieldHitType;
  declare readonly userIp?: string;
  declare readonly screenResolution?: string;
  declare readonly userLanguage?: string;
  declare readonly sessionNumber?: number;
  /** The verdict of the one check; undefined until it has run (a private field: a frozen hit still takes it). */
  #problem: string | null | undefined;

  /** Copies the parameters onto the hit; `type` is set last so a stray `type` parameter cannot change it. */
  protected constructor(type: FieldHitType, params: HitCommonParams) {
    Object.freeze(Object.assign(this, params, { type }));
  }

  /**
   * Null when the hit can be sent, else a message that says which field to change and how. The fields are
   * checked the first time only: a hit cannot change, so later calls (`sendHit` after the caller's own
   * check) return the same verdict without checking again.
   */
  validate(): string | null {
    if (this.#problem === undefined) this.#problem = validateHitContent(this.type, this.content());
    return this.#problem;
  }

  /** What the tracker takes: the cache type and the content with SPEC.md's field names (PROTOCOL.md §11). */
  toTrackedHit(): TrackedHit {
    return { type: this.type, content: pickHitContent(this.type, this.content()) };
  }

  private content(): Readonly<Record<string, unknown>> {
    return this as unknown as Readonly<Record<string, unknown>>;
  }
}

/** Sent each time a visitor arrives on a new interface: `new Screen({ location: 'checkout' })`. */
export class Screen extends HitProtocol {
  declare readonly location: string;

  /** Builds a Screen hit; `validate()` says whether it can be sent. */
  constructor(params: ScreenParams) {
    super('SCREENVIEW', params);
  }
}

/** Sent each time a visitor arrives on a web page: `new Page({ location: 'https://shop.example/cart' })`. */
export class Page extends HitProtocol {
  declare readonly location: string;

  /** Builds a Page hit; `validate()` says whether it can be sent. */
  constructor(params: PageParams) {
    super('PAGEVIEW', params);
  }
}

/** Sent when a visitor completes a transaction; its `affiliation` is the goal name. */
export class Transaction extends HitProtocol {
  declare readonly transactionId: string;
  declare readonly affiliation: string;
  declare readonly revenue?: number;
  declare readonly shipping?: number;
  declare readonly shippingMethod?: string;
  declare readonly tax?: number;
  declare readonly currency?: string;
  declare readonly paymentMethod?: string;
  declare readonly itemCount?: number;
  declare readonly couponCode?: string;

  /** Builds a Transaction hit; `validate()` says whether it can be sent. */
  constructor(params: TransactionParams) {
    super('TRANSACTION', params);
  }
}

/** One item of a transaction; send it after its {@link Transaction}. */
export class Item extends HitProtocol {
  declare readonly transactionId: string;
  declare readonly name: string;
  declare readonly code: string;
  declare readonly price?: number;
  declare readonly category?: string;
  declare readonly quantity?: number;

  /** Builds an Item hit; `validate()` says whether it can be sent. */
  constructor(params: ItemParams) {
    super('ITEM', params);
  }
}

/**
 * A custom event (click, subscription):
 * `new Event({ category: EventCategory.Action_Tracking, action: 'add_to_cart', value: 3 })`.
 */
export class Event extends HitProtocol {
  declare readonly category: EventCategory;
  declare readonly action: string;
  declare readonly label?: string;
  declare readonly value?: number;

  /** Builds an Event hit; `validate()` says whether it can be sent. */
  constructor(params: EventParams) {
    super('EVENT', params);
  }
}
