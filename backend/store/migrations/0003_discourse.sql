-- 0005: index-time structures of the structure-aware strategies (the
-- discourse trees of disretrieval, with their node texts and quantised node
-- vectors). One row per paper, kind and settings key; a paper's rows go with
-- it (re-indexing a changed file replaces the paper, and with it its rows).
CREATE TABLE structures (
    paper_id   INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,               -- e.g. 'discourse'
    key        TEXT    NOT NULL,               -- paper hash + builder version + settings (see the builder)
    data       BLOB    NOT NULL,               -- the builder's own encoding
    build_ms   INTEGER NOT NULL DEFAULT 0,     -- time it took to build
    created_at INTEGER NOT NULL,               -- unix milliseconds
    PRIMARY KEY (paper_id, kind, key)
);
