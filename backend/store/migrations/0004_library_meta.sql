-- 0006: reference metadata from reference managers (Zotero, BibTeX) and the
-- date each file was first added.
--
-- Keyed by the PDF's path, not by paper id: re-indexing replaces the papers
-- row (new id), and an imported reference may name a file that is indexed
-- later. Imported metadata wins over what was extracted from the PDF when the
-- library is listed. The table is prefixed paper_ref_/ref_ so it can coexist
-- with PDF-extracted metadata columns added to papers by other migrations.
CREATE TABLE paper_ref (
    path         TEXT    PRIMARY KEY,          -- the PDF file (papers.path)
    source       TEXT    NOT NULL,             -- 'zotero' or 'bibtex'
    source_file  TEXT    NOT NULL DEFAULT '',  -- the zotero.sqlite or .bib it came from
    source_id    TEXT    NOT NULL DEFAULT '',  -- Zotero item key or BibTeX entry key
    ref_title    TEXT    NOT NULL DEFAULT '',
    ref_authors  TEXT    NOT NULL DEFAULT '[]', -- JSON array of "First Last"
    ref_year     INTEGER NOT NULL DEFAULT 0,
    ref_venue    TEXT    NOT NULL DEFAULT '',
    ref_doi      TEXT    NOT NULL DEFAULT '',
    citation_key TEXT    NOT NULL DEFAULT '',
    collections  TEXT    NOT NULL DEFAULT '[]', -- JSON array of collection paths ("Parent / Child")
    tags         TEXT    NOT NULL DEFAULT '[]', -- JSON array of strings
    added_at     INTEGER NOT NULL DEFAULT 0,   -- unix ms, the reference manager's date added (0: unknown)
    version      TEXT    NOT NULL DEFAULT '',  -- digest of the imported record: re-imports skip equal ones
    updated_at   INTEGER NOT NULL              -- unix ms of the last import that changed it
);
CREATE INDEX paper_ref_citation_key ON paper_ref(citation_key);

-- When a file first entered the library (sort by date added). Re-indexing
-- deletes and re-inserts the papers row; INSERT OR IGNORE keeps the first date.
CREATE TABLE paper_added (
    path     TEXT    PRIMARY KEY,
    added_at INTEGER NOT NULL  -- unix ms
);
INSERT OR IGNORE INTO paper_added(path, added_at) SELECT path, indexed_at FROM papers;
CREATE TRIGGER paper_added_on_insert AFTER INSERT ON papers BEGIN
    INSERT OR IGNORE INTO paper_added(path, added_at) VALUES (NEW.path, NEW.indexed_at);
END;
