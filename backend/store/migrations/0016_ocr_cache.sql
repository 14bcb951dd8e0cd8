-- 0016: the words OCR read from a file's pages, kept by the file's content
-- hash, the OCR languages and the reader's version (ocr.CacheVersion), so
-- that reading the same PDF again (a new pipeline version, other settings,
-- a retry after a time-out, the file moved back in) does not run tesseract
-- again on pages it has read: a scan costs seconds a page. runs is the
-- page's words as JSON ([] for a page without words). Rows outlive a
-- failed reading (a retry resumes) and a removal (a file added back reads
-- from them); an index job drops those whose hash no paper, failed file or
-- removed file of the library has any more (Store.DropUnusedOCR).
CREATE TABLE IF NOT EXISTS ocr_cache (
    hash    TEXT    NOT NULL,
    langs   TEXT    NOT NULL,
    version TEXT    NOT NULL,
    page    INTEGER NOT NULL,
    runs    BLOB    NOT NULL,
    PRIMARY KEY (hash, langs, version, page)
) WITHOUT ROWID;
