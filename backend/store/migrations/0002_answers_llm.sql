-- 0002: saved answers, the LLM output cache and LLM usage accounting.

-- Every answer the library gives is kept, with what produced it, so the UI
-- can list and reopen past answers. No foreign key to papers: an answer
-- stays readable after its papers are re-indexed or removed (its evidence is
-- stored whole, as JSON).
CREATE TABLE answers (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    question    TEXT    NOT NULL,
    answer      TEXT    NOT NULL DEFAULT '',
    mode        TEXT    NOT NULL DEFAULT '',   -- "extractive" or "llm"
    strategy    TEXT    NOT NULL DEFAULT '',
    budget      INTEGER NOT NULL DEFAULT 0,
    not_found   INTEGER NOT NULL DEFAULT 0,
    settings    TEXT    NOT NULL DEFAULT '{}', -- JSON: retrieval params etc. the answer was made with (never secrets)
    evidence    TEXT    NOT NULL DEFAULT '[]', -- JSON array of papertree.Evidence
    diagnostics TEXT    NOT NULL DEFAULT '{}', -- JSON papertree.Diagnostics
    papers      TEXT    NOT NULL DEFAULT '[]', -- JSON array of paper ids (the scope; [] = whole library)
    model       TEXT    NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL               -- unix milliseconds
);
CREATE INDEX answers_created ON answers(created_at DESC, id DESC);

-- Outputs of deterministic LLM operations (temperature 0), keyed by the
-- sha256 of operation, model and inputs, so that re-indexing an unchanged
-- segment never asks the model again.
CREATE TABLE llm_cache (
    key        TEXT    PRIMARY KEY,  -- hex sha256 (see LLMCacheKey)
    op         TEXT    NOT NULL,
    model      TEXT    NOT NULL,
    value      TEXT    NOT NULL,
    created_at INTEGER NOT NULL      -- unix milliseconds
) WITHOUT ROWID;

-- One row per LLM or embedding call (llm.Usage).
CREATE TABLE llm_usage (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    op                TEXT    NOT NULL,
    model             TEXT    NOT NULL DEFAULT '',
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    ms                REAL    NOT NULL DEFAULT 0,
    error             TEXT    NOT NULL DEFAULT '',
    created_at        INTEGER NOT NULL -- unix milliseconds
);
CREATE INDEX llm_usage_created ON llm_usage(created_at);
