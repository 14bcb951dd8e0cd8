-- 0017: the document frequency of the full-text index's common terms, so
-- that the first question after opening a library reads one row per query
-- word instead of counting the word's rows in node_fts (a count reads the
-- term's whole posting list: at 5,000 papers a quarter of a cold
-- question's time). df is the number of node_fts rows holding the stemmed
-- term, as fts5vocab 'row' counts them, which is what
-- "SELECT count(*) FROM node_fts WHERE node_fts MATCH 'term'" returns; only
-- terms in at least 32 rows are kept (a rarer term's count reads about as
-- little as a lookup here). term_df_state.version is the FTS5 averages and
-- structure records the rows were read from (Store.termDFVersionSQL): any
-- write to node_fts changes them, and a stale table is not used (the word
-- is counted, as before) until Store.RefreshTermDF rebuilds it.
CREATE TABLE IF NOT EXISTS term_df (
    term TEXT    PRIMARY KEY,
    df   INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS term_df_state (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version BLOB    NOT NULL
);
CREATE VIRTUAL TABLE temp.term_df_vocab USING fts5vocab(main, node_fts, 'row');
DELETE FROM term_df;
INSERT INTO term_df(term, df) SELECT term, doc FROM temp.term_df_vocab WHERE doc >= 32;
INSERT OR REPLACE INTO term_df_state(id, version) VALUES (1,
    coalesce((SELECT block FROM node_fts_data WHERE id = 1), x'') ||
    coalesce((SELECT block FROM node_fts_data WHERE id = 10), x''));
DROP TABLE temp.term_df_vocab;

-- The children of a node by kind and role: identifying the paper a
-- question names reads the leaves directly under every root and under
-- every abstract (Store.IdentityRows), and with parent_id alone SQLite
-- read every such child's row, sections included, to test its kind: on a
-- fresh connection (the CLI's ask) 1,173 page reads at 148 papers, 102
-- with the kind and role in the index. Every other use of the parent_id
-- prefix is unchanged.
DROP INDEX IF EXISTS nodes_parent;
CREATE INDEX nodes_parent ON nodes(parent_id, kind, role);
