-- Remote backends this backend federates with under the allowDynamic strategy
-- (brig's internal CRUD at /i/federation/remotes). Mirrors src/edge/db/schema.ts.
CREATE TABLE federation_remotes (
  domain TEXT PRIMARY KEY NOT NULL,
  search_policy TEXT NOT NULL CHECK (search_policy IN ('no_search', 'exact_handle_search', 'full_search')),
  restriction TEXT NOT NULL CHECK (restriction IN ('allow_all', 'restrict_by_team')),
  -- JSON array of team ids when restriction = 'restrict_by_team'
  restriction_teams TEXT NOT NULL DEFAULT '[]'
);
