-- Paper identification reads, for every paper, its front-matter leaves, the
-- root's own leaves and the abstract section's leaves (store.IdentityRows).
-- Without an index on roles those reads scan every node of the library with
-- a parent lookup per row (tens of milliseconds at 150 papers, a second at
-- 5,000, on the path of the first library-wide question). These partial
-- indexes hold only the few rows asked for (one root and a handful of
-- front-matter and abstract nodes per paper).
CREATE INDEX IF NOT EXISTS nodes_roots ON nodes(paper_id) WHERE kind = 'root';
CREATE INDEX IF NOT EXISTS nodes_front_matter ON nodes(paper_id, ord) WHERE role = 'front_matter';
CREATE INDEX IF NOT EXISTS nodes_abstracts ON nodes(paper_id) WHERE role = 'abstract';
