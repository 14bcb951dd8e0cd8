-- 0015: Chinese, Japanese and Korean text in the full-text index. FTS5's
-- unicode61 tokenizer makes one word of every run of letters up to a space
-- or punctuation; these scripts put no spaces between words, so a whole
-- clause was one word and no question word matched it. The index now
-- tokenizes papertree_fts_text(title) and papertree_fts_text(text)
-- (papertree.CJKIndexText, registered on every connection by store's
-- driver): each CJK run becomes its overlapping character bigrams plus its
-- last character; text without CJK characters is passed unchanged, so its
-- words are indexed exactly as before.
--
-- The index's external content is a view that applies the function, so
-- FTS5's own reads of the content ('rebuild', 'integrity-check') see what
-- was indexed; the view holds only the nodes that are indexed (title or
-- text not empty), the condition of SavePaper and of the delete trigger.
-- The triggers pass the same rewritten values. The index is rebuilt once
-- here from the nodes (no paper is re-indexed).
DROP TRIGGER IF EXISTS nodes_fts_delete;
DROP TRIGGER IF EXISTS nodes_fts_update;
DROP TABLE IF EXISTS node_fts;
DROP VIEW IF EXISTS nodes_fts_source;

CREATE VIEW nodes_fts_source AS
    SELECT id, papertree_fts_text(title) AS title, papertree_fts_text(text) AS text
    FROM nodes WHERE title <> '' OR text <> '';

CREATE VIRTUAL TABLE node_fts USING fts5(
    title, text,
    content = 'nodes_fts_source', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER nodes_fts_delete AFTER DELETE ON nodes
WHEN old.title <> '' OR old.text <> '' BEGIN
    INSERT INTO node_fts(node_fts, rowid, title, text)
        VALUES ('delete', old.id, papertree_fts_text(old.title), papertree_fts_text(old.text));
END;

-- One update trigger, so the old entry is always removed before the new one
-- is added (the firing order of separate triggers is not specified).
CREATE TRIGGER nodes_fts_update AFTER UPDATE OF title, text ON nodes BEGIN
    INSERT INTO node_fts(node_fts, rowid, title, text)
        SELECT 'delete', old.id, papertree_fts_text(old.title), papertree_fts_text(old.text)
        WHERE old.title <> '' OR old.text <> '';
    INSERT INTO node_fts(rowid, title, text)
        SELECT new.id, papertree_fts_text(new.title), papertree_fts_text(new.text)
        WHERE new.title <> '' OR new.text <> '';
END;

INSERT INTO node_fts(node_fts) VALUES ('rebuild');
