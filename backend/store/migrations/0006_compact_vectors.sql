-- 0006: compact vectors. Segment, summary and section vectors move out of
-- their vec0 tables (float32, one partition per paper, chunks of 128/32
-- slots allocated whole: about 1 MB per paper of which half was empty) into
-- ONE row per (paper, space): the paper's vectors quantized to int8 with a
-- per-vector scale (about 4x smaller than float32), loaded with one read
-- instead of a vec0 point lookup per node. Scoring decodes them in Go.
--
-- Layout of data (little-endian), n vectors of dim components:
--   n x int64   node id
--   n x float32 scale (component = code * scale)
--   n x dim x int8 codes
-- The paper-level space (one vector per paper) stays in vec0 (vec_paper).
--
-- Existing vec_segment/vec_summary/vec_section tables are converted into
-- this table by the store when it opens the library (it needs sqlite-vec
-- and Go to quantize), then dropped and the file vacuumed.
CREATE TABLE paper_vectors (
    paper_id INTEGER NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
    space    TEXT    NOT NULL CHECK (space IN ('segment', 'summary', 'section')),
    n        INTEGER NOT NULL,
    dim      INTEGER NOT NULL,
    data     BLOB    NOT NULL,
    PRIMARY KEY (paper_id, space)
);

-- Library-wide questions start from the ids of the ready papers; without an
-- index that read scanned every paper row (about 25 ms at 20,000 papers).
CREATE INDEX papers_ready ON papers(status, id);
