// Each campaign's size, number of targetings and number of list items, kept beside its body so that an edit
// checks the environment's totals against CAMPAIGN_LIMITS (maxEnvironmentBytes, maxTargetingsPerEnvironment,
// maxListItemsPerEnvironment; issue 29) with one sum instead of reading every body back.
// Rows written before this migration get the size of jsonb's text form, which spells ", " and ": " with a
// space and so counts a little more than the campaign's JSON: an old environment can only look fuller than it
// is, and the figure becomes exact at the campaign's next write. Their targetings and items are counted exactly.

/** Migration 8: campaigns.body_bytes (UTF-8 bytes of the campaign's JSON), .targetings and .list_items. */
export const campaignBytesMigration = {
  version: 8,
  name: '008-campaign-bytes',
  sql: `
ALTER TABLE campaigns ADD COLUMN body_bytes integer;
ALTER TABLE campaigns ADD COLUMN targetings integer;
ALTER TABLE campaigns ADD COLUMN list_items integer;
UPDATE campaigns SET body_bytes = octet_length(body::text), targetings = (
  SELECT count(*) FROM jsonb_array_elements(body->'variationGroups') AS g,
    jsonb_array_elements(g->'targeting'->'targetingGroups') AS tg,
    jsonb_array_elements(tg->'targetings') AS t
), list_items = (
  SELECT COALESCE(sum(jsonb_array_length(t->'value')), 0) FROM jsonb_array_elements(body->'variationGroups') AS g,
    jsonb_array_elements(g->'targeting'->'targetingGroups') AS tg,
    jsonb_array_elements(tg->'targetings') AS t
  WHERE jsonb_typeof(t->'value') = 'array'
);
ALTER TABLE campaigns ALTER COLUMN body_bytes SET NOT NULL;
ALTER TABLE campaigns ALTER COLUMN targetings SET NOT NULL;
ALTER TABLE campaigns ALTER COLUMN list_items SET NOT NULL
`,
} as const;
