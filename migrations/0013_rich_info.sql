-- brig: rich info of users (SCIM-provisioned profile fields), one normalised list per user.
-- Mirrors src/edge/db/schema.ts.
CREATE TABLE rich_info (
  user TEXT PRIMARY KEY NOT NULL,
  -- JSON array of {"type": string, "value": string}, in the order given
  fields TEXT NOT NULL
);
