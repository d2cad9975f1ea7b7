/** One activation (exposure) item of the batch form of `POST /v2/activate` (PROTOCOL.md §4). */
export interface ActivationItem {
  /** The visitor's current id: the authenticated id after `authenticate`. */
  vid: string;
  /** The anonymous id when authenticated, else null or absent. */
  aid?: string | null;
  /** The variation group id (the platform's naming). */
  caid: string;
  /** The variation id. */
  vaid: string;
  /** Queue time in ms: send time minus creation time. */
  qt: number;
  /** Idempotency id (UUID v4). */
  hid?: string;
  /** May repeat the batch's environment id. */
  cid?: string;
}

/** The batch form of `POST /v2/activate`. */
export interface ActivationBatch {
  cid: string;
  batch: ActivationItem[];
}

/** The most activations in one batch request. */
export const MAX_ACTIVATIONS_PER_BATCH = 100;

/** A per-item rejection in a 200 answer of the activation or hit routes. */
export interface ItemRejection {
  index: number;
  message: string;
}

/** The 200 answer of `POST /v2/activate` when some items were invalid, and of `POST /events` always. */
export interface CollectAnswer {
  accepted: number;
  duplicates: number;
  rejected: ItemRejection[];
}
