// What each campaign counts toward its environment's limits (CAMPAIGN_LIMITS, issue 29), kept beside its body
// so that an edit checks the totals with one sum instead of reading every body back: its size, targetings,
// list items, and characters of CONTAINS/NOT_CONTAINS/STARTS_WITH/ENDS_WITH targets (each at least 8).
// Rows written before this migration get the size of jsonb's text form, which spells ", " and ": " with a
// space and so counts a little more than the campaign's JSON: an old environment can only look fuller than it
// is, and the figure becomes exact at the campaign's next write. Their targetings and items are counted exactly;
// their pattern characters in code points (the server counts UTF-16 units: a few less outside the BMP).

/** Migration 8: campaigns.body_bytes, .targetings, .list_items and .pattern_chars. */
export const campaignBytesMigration = {
  version: 8,
  name: '008-campaign-bytes',
  sql: `
ALTER TABLE campaigns ADD COLUMN body_bytes integer;
ALTER TABLE campaigns ADD COLUMN targetings integer;
ALTER TABLE campaigns ADD COLUMN list_items integer;
ALTER TABLE campaigns ADD COLUMN pattern_chars integer;
UPDATE campaigns SET body_bytes = octet_length(body::text), targetings = (
  SELECT count(*) FROM jsonb_array_elements(body->'variationGroups') AS g,
    jsonb_array_elements(g->'targeting'->'targetingGroups') AS tg,
    jsonb_array_elements(tg->'targetings') AS t
), list_items = (
  SELECT COALESCE(sum(jsonb_array_length(t->'value')), 0) FROM jsonb_array_elements(body->'variationGroups') AS g,
    jsonb_array_elements(g->'targeting'->'targetingGroups') AS tg,
    jsonb_array_elements(tg->'targetings') AS t
  WHERE jsonb_typeof(t->'value') = 'array'
), pattern_chars = (
  SELECT COALESCE(sum(GREATEST(char_length(v #>> '{}'), 8)), 0)
  FROM jsonb_array_elements(body->'variationGroups') AS g,
    jsonb_array_elements(g->'targeting'->'targetingGroups') AS tg,
    jsonb_array_elements(tg->'targetings') AS t,
    jsonb_array_elements(CASE WHEN jsonb_typeof(t->'value') = 'array' THEN t->'value'
      ELSE jsonb_build_array(t->'value') END) AS v
  WHERE t->>'operator' IN ('CONTAINS', 'NOT_CONTAINS', 'STARTS_WITH', 'ENDS_WITH') AND jsonb_typeof(v) = 'string'
);
ALTER TABLE campaigns ALTER COLUMN body_bytes SET NOT NULL;
ALTER TABLE campaigns ALTER COLUMN targetings SET NOT NULL;
ALTER TABLE campaigns ALTER COLUMN list_items SET NOT NULL;
ALTER TABLE campaigns ALTER COLUMN pattern_chars SET NOT NULL
`,
} as const;
