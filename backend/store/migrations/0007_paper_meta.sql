-- Metadata the tree builder extracts from the PDF (first page, info
-- dictionary): kept with the paper so the library can show it when no
-- reference manager supplies it. Not part of the re-index fingerprint.
ALTER TABLE papers ADD COLUMN venue TEXT NOT NULL DEFAULT '';
ALTER TABLE papers ADD COLUMN doi TEXT NOT NULL DEFAULT '';
ALTER TABLE papers ADD COLUMN arxiv_id TEXT NOT NULL DEFAULT '';
ALTER TABLE papers ADD COLUMN affiliations TEXT NOT NULL DEFAULT '[]';
