// The campaigns the SDK-to-server tests import: PROTOCOL.md §15's two variation groups (expected variations
// copied from its table, never computed by the engine), in the bucketing format an operator imports.
import type { BucketingFile, BucketingVariation } from '../../src/protocol/index.js';
import { VG25, VG50 } from '../core/decision/bucketing-files.js';

// The §15 vectors and group ids are the core tests' own, so both suites read one copy of the table.
export { VECTORS, VG25, VG50 } from '../core/decision/bucketing-files.js';

const everyone = {
  targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'fs_all_users', value: '' }] }],
};

const variations = (prefix: string, flag: string, allocations: number[]): BucketingVariation[] => [
  {
    id: `${prefix}-ref`,
    name: 'Reference',
    reference: true,
    modifications: { type: 'FLAG', value: { [flag]: 0 } },
  },
  ...allocations.map((allocation, i) => ({
    id: `${prefix}-${i + 1}`,
    name: `Variation ${i + 1}`,
    reference: false,
    allocation,
    modifications: { type: 'FLAG', value: { [flag]: i + 1 } },
  })),
];

/**
 * The file the tests import: `quarters` (VG25, flag `q` = 1..4, allocations `quarters`), `halves` (VG50,
 * flag `h` = 1..2) and a toggle for premium visitors (flag `discount`); `extra` adds a toggle for everyone
 * (flag `banner`), the kind of change a poll must bring to a running SDK.
 */
export const campaignsFile = (
  options: { quarters?: number[]; extra?: boolean } = {},
): Pick<BucketingFile, 'campaigns'> => ({
  campaigns: [
    {
      id: 'quarters',
      name: 'Quarters',
      type: 'ab',
      slug: 'quarters',
      variationGroups: [
        {
          id: VG25,
          name: 'All',
          targeting: everyone,
          variations: variations('q', 'q', options.quarters ?? [25, 25, 25, 25]),
        },
      ],
    },
    {
      id: 'halves',
      name: 'Halves',
      type: 'ab',
      variationGroups: [
        { id: VG50, name: 'All', targeting: everyone, variations: variations('h', 'h', [50, 50]) },
      ],
    },
    {
      id: 'premium',
      name: 'Premium discount',
      type: 'toggle',
      variationGroups: [
        {
          id: 'premium-members',
          name: 'Premium',
          targeting: {
            targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'plan', value: 'premium' }] }],
          },
          variations: [
            {
              id: 'premium-on',
              name: 'On',
              reference: true,
              allocation: 100,
              modifications: { type: 'FLAG', value: { discount: 10 } },
            },
          ],
        },
      ],
    },
    ...(options.extra === true
      ? [
          {
            id: 'banner',
            name: 'Banner',
            type: 'toggle' as const,
            variationGroups: [
              {
                id: 'banner-all',
                name: 'All',
                targeting: everyone,
                variations: [
                  {
                    id: 'banner-on',
                    name: 'On',
                    reference: true,
                    allocation: 100,
                    modifications: { type: 'FLAG', value: { banner: 'on' } },
                  },
                ],
              },
            ],
          },
        ]
      : []),
  ],
});
