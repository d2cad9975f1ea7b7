// Bucketing files built on PROTOCOL.md §15's allocation vectors: group bs8qvmo4nlr01fl9bbbb is a reference
// without allocation then four variations of 25 (flag `variation` = 1..4); group bs8r119sbs4016meiiii is a
// reference then 50/50 (flag `variation50` = 1..2). The table of §15 gives each visitor's variation.
import type { BucketingFile, BucketingVariation } from '../../../src/protocol/index.js';

/** Group ids of §15. */
export const VG25 = 'bs8qvmo4nlr01fl9bbbb';
export const VG50 = 'bs8r119sbs4016meiiii';

/** §15's visitors with their variation in VG25 and VG50, from the table (never from running the engine). */
export const VECTORS = [
  { id: '202072017183814142', variation: 4, variation50: 1 },
  { id: '202072017233690230', variation: 1, variation50: 2 },
  { id: '202072017183842202', variation: 3, variation50: 1 },
  { id: '202072017183823773', variation: 2, variation50: 2 },
  { id: '202072017183972690', variation: 1, variation50: 2 },
] as const;

const variations = (flag: string, allocations: Array<number | undefined>): BucketingVariation[] => [
  {
    id: `${flag}-ref`,
    name: 'Reference',
    reference: true,
    modifications: { type: 'FLAG', value: { [flag]: 0 } },
  },
  ...allocations.map((allocation, i) => ({
    id: `${flag}-${i + 1}`,
    name: `Variation ${i + 1}`,
    reference: false,
    ...(allocation === undefined ? {} : { allocation }),
    modifications: { type: 'FLAG', value: { [flag]: i + 1 } },
  })),
];

const everyone = {
  targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'fs_all_users', value: '' }] }],
};

/**
 * The file of §15: VG25 with `allocations25` (default four of 25) and VG50 50/50, each in its own campaign.
 * `panic` and `xpc` set the file's panic flag and `accountSettings.enabledXPC`.
 */
export const vectorFile = (
  options: { allocations25?: Array<number | undefined>; panic?: boolean; xpc?: boolean } = {},
): BucketingFile => ({
  panic: options.panic ?? false,
  campaigns: [
    {
      id: 'c25',
      name: 'Quarters',
      type: 'ab',
      slug: 'quarters',
      bucketRanges: [{ r: [0, 100] }],
      variationGroups: [
        {
          id: VG25,
          name: 'All',
          targeting: everyone,
          variations: variations('variation', options.allocations25 ?? [25, 25, 25, 25]),
        },
      ],
    },
    {
      id: 'c50',
      name: 'Halves',
      type: 'ab',
      slug: null,
      bucketRanges: [{ r: [0, 100] }],
      variationGroups: [
        { id: VG50, name: 'All', targeting: everyone, variations: variations('variation50', [50, 50]) },
      ],
    },
  ],
  accountSettings: { enabledXPC: options.xpc ?? false, enabled1V1T: false },
});

/** The variation id the file gives `n` (1-based) in the group of `flag`. */
export const variationId = (flag: 'variation' | 'variation50', n: number): string => `${flag}-${n}`;
