import type { FlagMetadata, JsonValue, VisitorContext } from '../../protocol/index.js';

/** The visitor of an exposure callback (SPEC.md `VisitorExposed`), as it was when the flag was exposed. */
export class VisitorExposed {
  /** Made by the SDK for `withOnVisitorExposed`. */
  constructor(
    /** The visitor id. */
    readonly id: string,
    /** The anonymous id (experience continuity), or null. */
    readonly anonymousId: string | null,
    /** The visitor context. */
    readonly context: Readonly<VisitorContext>,
  ) {}

  /** `{"id":…,"anonymousId":…,"context":{…}}` (PROTOCOL.md §9.5). */
  toJson(): string {
    return JSON.stringify({ id: this.id, anonymousId: this.anonymousId, context: this.context });
  }
}

/** The flag of an exposure callback (SPEC.md `ExposedFlag`). */
export class ExposedFlag {
  /** Made by the SDK for `withOnVisitorExposed`. */
  constructor(
    /** The flag key. */
    readonly key: string,
    /** The flag value (null when the variation does not set it). */
    readonly value: JsonValue,
    /** The default value the flag was read with. */
    readonly defaultValue: unknown,
    private readonly meta: Readonly<FlagMetadata>,
  ) {}

  /** The campaign metadata. */
  metadata(): FlagMetadata {
    return { ...this.meta };
  }

  /** `{"key","value","defaultValue","metadata":{campaignId,variationGroupId,variationId,isReference,campaignType,slug}}`, slug null when empty (PROTOCOL.md §9.5). */
  toJson(): string {
    const m = this.meta;
    return JSON.stringify({
      key: this.key,
      value: this.value,
      defaultValue: this.defaultValue ?? null,
      metadata: {
        campaignId: m.campaignId,
        variationGroupId: m.variationGroupId,
        variationId: m.variationId,
        isReference: m.isReference,
        campaignType: m.campaignType,
        slug: m.slug === '' ? null : m.slug,
      },
    });
  }
}

/** The exposure callback (SPEC.md `OnVisitorExposed`): fired when the server acknowledged the exposure. */
export type OnVisitorExposed = (visitorExposed: VisitorExposed, fromFlag: ExposedFlag) => void;
