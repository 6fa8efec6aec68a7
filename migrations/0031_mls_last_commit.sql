-- The last commit a group took: {"digest": sha256 of the commit (hex), "result": the answer given}.
-- The same commit sent again (its sender got no answer) is answered the same, not refused as stale.
ALTER TABLE mls_group_infos ADD COLUMN last_commit TEXT;
