-- Files the researcher removed from the library. Removing a paper deletes
-- its rows (nodes, full-text entries, vectors) in the same transaction that
-- writes this row, so a crash leaves either the paper or the tombstone, never
-- half of each. The file itself is never touched. A re-index of a watched
-- folder skips the files listed here; indexing the exact file again (CLI
-- `index FILE`, the app's "Add back") deletes the row and indexes it.
CREATE TABLE removed_files (
    path       TEXT    PRIMARY KEY,
    hash       TEXT    NOT NULL DEFAULT '',
    title      TEXT    NOT NULL DEFAULT '',
    paper_id   INTEGER NOT NULL DEFAULT 0, -- the id it had (ids are never reused)
    removed_at INTEGER NOT NULL            -- unix milliseconds
) WITHOUT ROWID;
