-- 0001: papers, their trees (adjacency + closure), full-text index, settings.
-- Vector tables (vec0) are NOT created here: their dimension is only known
-- when an embedder is chosen, so EnsureEmbedder creates them at run time.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- One row per file of the library. A paper is either 'ready' (it has a whole
-- tree, written in one transaction) or 'failed' (no nodes; err_code says why).
-- AUTOINCREMENT so that ids are never reused: a UI holding an old id gets
-- not_found rather than another paper.
CREATE TABLE papers (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    path         TEXT    NOT NULL UNIQUE,
    hash         TEXT    NOT NULL DEFAULT '',
    title        TEXT    NOT NULL DEFAULT '',
    authors      TEXT    NOT NULL DEFAULT '[]', -- JSON array of strings
    abstract     TEXT    NOT NULL DEFAULT '',
    year         INTEGER NOT NULL DEFAULT 0,
    pages        INTEGER NOT NULL DEFAULT 0,
    page_sizes   TEXT    NOT NULL DEFAULT '[]', -- JSON array of {w,h}
    outline_used INTEGER NOT NULL DEFAULT 0,
    status       TEXT    NOT NULL CHECK (status IN ('ready', 'failed')),
    err_code     TEXT    NOT NULL DEFAULT '',
    err_message  TEXT    NOT NULL DEFAULT '',
    fingerprint  TEXT    NOT NULL DEFAULT '', -- parse/index settings the paper was built with
    embedder     TEXT    NOT NULL DEFAULT '', -- embedder name its vectors came from ('' = none)
    stale        INTEGER NOT NULL DEFAULT 0,  -- 1 when the embedder changed after indexing
    node_count   INTEGER NOT NULL DEFAULT 0,  -- written with the nodes; lets checks prove a paper is whole
    indexed_at   INTEGER NOT NULL,            -- unix milliseconds
    warnings     TEXT    NOT NULL DEFAULT '[]' -- JSON array of strings
);

-- Tree nodes, adjacency form. ord is the pre-order index inside the paper
-- (document order); (paper_id, ord) is unique and is how the tree is rebuilt.
CREATE TABLE nodes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    paper_id   INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
    parent_id  INTEGER REFERENCES nodes(id) ON DELETE CASCADE,
    ord        INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('root', 'section', 'segment', 'caption')),
    title      TEXT    NOT NULL DEFAULT '',
    number     TEXT    NOT NULL DEFAULT '',
    level      INTEGER NOT NULL DEFAULT 0,
    role       TEXT    NOT NULL DEFAULT '',
    text       TEXT    NOT NULL DEFAULT '',
    summary    TEXT    NOT NULL DEFAULT '',
    page_start INTEGER NOT NULL DEFAULT 0,
    page_end   INTEGER NOT NULL DEFAULT 0,
    boxes      TEXT    NOT NULL DEFAULT '[]', -- JSON array of papertree.Box
    tokens     INTEGER NOT NULL DEFAULT 0,
    UNIQUE (paper_id, ord)
);
CREATE INDEX nodes_parent ON nodes(parent_id);

-- Closure table: one row per (ancestor, descendant) pair including the node
-- itself at depth 0. "Everything under section X" is a range scan on the
-- primary key; "the path of node Y" is a scan of node_closure_desc.
CREATE TABLE node_closure (
    ancestor_id   INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    descendant_id INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    depth         INTEGER NOT NULL,
    PRIMARY KEY (ancestor_id, descendant_id)
) WITHOUT ROWID;
CREATE INDEX node_closure_desc ON node_closure(descendant_id, depth);

-- Full-text index over node titles (sections, the paper title) and leaf text.
-- External content: the text lives once, in nodes. Rows are ADDED in bulk by
-- SavePaper, one INSERT ... SELECT per paper (FTS5 flushes pending terms at
-- every statement, so a per-row insert trigger makes saving ~2x slower); every
-- other node insert path must do the same. Rows are REMOVED by triggers, so
-- every delete path (DeletePaper, Prune, replace, FK cascades) keeps the index
-- in step. Nodes with neither title nor text are not indexed; the delete
-- trigger uses the same condition.
CREATE VIRTUAL TABLE node_fts USING fts5(
    title, text,
    content = 'nodes', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER nodes_fts_delete AFTER DELETE ON nodes
WHEN old.title <> '' OR old.text <> '' BEGIN
    INSERT INTO node_fts(node_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
END;

-- One update trigger, so the old entry is always removed before the new one
-- is added (the firing order of separate triggers is not specified).
CREATE TRIGGER nodes_fts_update AFTER UPDATE OF title, text ON nodes BEGIN
    INSERT INTO node_fts(node_fts, rowid, title, text)
        SELECT 'delete', old.id, old.title, old.text WHERE old.title <> '' OR old.text <> '';
    INSERT INTO node_fts(rowid, title, text)
        SELECT new.id, new.title, new.text WHERE new.title <> '' OR new.text <> '';
END;
