// One activation of `POST /v2/activate` (PROTOCOL.md §4), validated on its own: the valid items of a batch
// are kept and the others rejected with their index. The variation must belong to its variation group in
// the environment now or in the past (deleted campaigns are tombstones, so a cached activation still counts).
// The texts it stores are storable and `qt` is within its range (PROTOCOL.md §2.1, §5.1), or it is rejected.
import { isJsonObject } from 'feature-ts/protocol';
import { itemChecker } from '../http/schema-validation.js';
import { activationItemSchema } from '../plugins/activation-schemas.js';
import type { ActivationRow } from '../store/collect-store.js';

const checkShape = itemChecker(activationItemSchema);

/** A validated activation, or why it was rejected. */
export type ActivationCheck = { row: ActivationRow } | { message: string };

/** Validates one activation of environment `cid` against its variation index. */
export const checkActivation = (
  raw: unknown,
  cid: string,
  path: string,
  receivedMs: number,
  owners: ReadonlyMap<string, ReadonlyMap<string, string>>,
): ActivationCheck => {
  const at = (field: string): string => (path === '' ? field : `${path}.${field}`);
  if (!isJsonObject(raw)) return { message: `${path === '' ? 'the activation' : path} must be an object` };
  const problem = checkShape(raw, path);
  if (problem !== null) return { message: problem };
  // What the schema cannot say: the batch's environment, and the variation's group in it.
  if (raw.cid !== undefined && raw.cid !== cid)
    return { message: `${at('cid')} differs from the batch's cid` };
  const group = raw.caid as string;
  const variation = raw.vaid as string;
  const campaignId = owners.get(group)?.get(variation);
  if (campaignId === undefined) {
    return {
      message: owners.has(group)
        ? `${at('vaid')} "${variation}" is not a variation of variation group "${group}" in this environment`
        : `${at('caid')} "${group}" is not a variation group of this environment`,
    };
  }
  const qt = typeof raw.qt === 'number' ? raw.qt : 0;
  return {
    row: {
      hid: typeof raw.hid === 'string' ? raw.hid : null,
      visitorId: raw.vid as string,
      anonymousId: typeof raw.aid === 'string' ? raw.aid : null,
      campaignId,
      variationGroupId: group,
      variationId: variation,
      createdMs: receivedMs - qt,
      receivedMs,
    },
  };
};
