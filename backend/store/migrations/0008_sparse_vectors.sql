-- 0008: sparse int8 vector rows. About 60% of the int8 codes of a paper's
-- vectors are 0 (components below half a quantization step), so rows are
-- now written with format 1: per vector a bitmap of its non-zero
-- components followed by those codes only (see encodeBlob in
-- store/vectors.go), about half the bytes of a dense row. Rows written
-- before keep format 0 (dense) and stay readable; no conversion is needed.
ALTER TABLE paper_vectors ADD COLUMN format INTEGER NOT NULL DEFAULT 0;
