-- User search: a full-text index over names and handles, kept in step with users by triggers,
-- and each team's search visibility. Mirrors src/edge/db/schema.ts.
ALTER TABLE teams ADD COLUMN search_visibility TEXT NOT NULL DEFAULT 'standard' CHECK (search_visibility IN ('standard', 'no-name-outside-team'));

CREATE VIRTUAL TABLE user_search USING fts5(name, handle, content = 'users', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2');

CREATE TRIGGER user_search_insert AFTER INSERT ON users BEGIN
  INSERT INTO user_search (rowid, name, handle) VALUES (new.rowid, new.name, new.handle);
END;

CREATE TRIGGER user_search_delete AFTER DELETE ON users BEGIN
  INSERT INTO user_search (user_search, rowid, name, handle) VALUES ('delete', old.rowid, old.name, old.handle);
END;

CREATE TRIGGER user_search_update AFTER UPDATE OF name, handle ON users BEGIN
  INSERT INTO user_search (user_search, rowid, name, handle) VALUES ('delete', old.rowid, old.name, old.handle);
  INSERT INTO user_search (rowid, name, handle) VALUES (new.rowid, new.name, new.handle);
END;

INSERT INTO user_search (user_search) VALUES ('rebuild');
