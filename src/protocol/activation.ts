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

/** The most activations our SDK sends in one batch request. */
export const MAX_ACTIVATIONS_PER_BATCH = 100;

/** The most activations of one request the server processes; the rest are rejected by index (§4). */
export const MAX_ACTIVATIONS_PROCESSED = 1000;

/** The most rejections a collect answer lists; `rejectedCount` gives the total (§5.2). */
export const MAX_REJECTIONS_LISTED = 100;

/** A per-item rejection in a 200 answer of the activation or hit routes. */
export interface ItemRejection {
  index: number;
  message: string;
}

/** The 200 answer of `POST /v2/activate` when some items were invalid, and of `POST /events` always. */
export interface CollectAnswer {
  accepted: number;
  duplicates: number;
  /** The first rejections, in index order: at most MAX_REJECTIONS_LISTED. */
  rejected: ItemRejection[];
  /** How many items were rejected in all, listed or not. */
  rejectedCount: number;
}
