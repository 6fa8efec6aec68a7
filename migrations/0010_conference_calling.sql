-- A user's own conferenceCalling value (brig conferenceCalling.defaultForNew); NULL means
-- "use defaultForNull". Mirrors src/edge/db/schema.ts.
ALTER TABLE users ADD COLUMN conference_calling TEXT CHECK (conference_calling IN ('enabled', 'disabled'));
