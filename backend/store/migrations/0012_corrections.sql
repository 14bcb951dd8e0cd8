-- 0012: the researcher's corrections (the overlay). Keyed by the PDF's path,
-- like paper_ref: re-indexing replaces the papers row and its nodes (new
-- ids), and the corrections must outlive that. Nothing here is derived from
-- the PDF; the papers and nodes rows show the corrections applied.

-- A corrected metadata field. value is what the researcher set; read is what
-- the last indexing read from the PDF (refreshed at every save), so a revert
-- restores it without reading the PDF again.
CREATE TABLE paper_edit (
    path      TEXT    NOT NULL,
    field     TEXT    NOT NULL CHECK (field IN ('title', 'authors', 'year', 'venue', 'doi', 'key')),
    value     TEXT    NOT NULL,  -- authors: JSON array of strings; year: decimal
    read      TEXT    NOT NULL DEFAULT '',
    hash      TEXT    NOT NULL DEFAULT '', -- content of the file when last saved: finds a moved file
    edited_at INTEGER NOT NULL,  -- unix ms
    PRIMARY KEY (path, field)
);

-- Heading corrections, replayed in id order on the tree as read. target is
-- the heading text (for promote: the line) as shown when the correction was
-- made, nth which of the equal ones; unmatched is 1 when the last rebuild of
-- the paper found no such heading (kept, reported, re-tried at every rebuild).
CREATE TABLE heading_edit (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    path      TEXT    NOT NULL,
    op        TEXT    NOT NULL CHECK (op IN ('rename', 'level', 'merge', 'not_heading', 'promote')),
    target    TEXT    NOT NULL,
    nth       INTEGER NOT NULL DEFAULT 0,
    arg       TEXT    NOT NULL DEFAULT '',
    level     INTEGER NOT NULL DEFAULT 0,
    edited_at INTEGER NOT NULL,
    unmatched INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX heading_edit_path ON heading_edit(path, id);

-- The tree as read (JSON of papertree.Node) of a paper with heading
-- corrections, so an undo replays the others without reading the PDF again.
-- hash: the content it was read from.
CREATE TABLE paper_read_tree (
    path TEXT PRIMARY KEY,
    hash TEXT NOT NULL,
    tree BLOB NOT NULL
);
