-- Pages of a paper whose text was read by OCR (a scan, or a text layer too
-- poor to keep): the library list marks such papers, and a change of the OCR
-- languages re-reads exactly them. 0 for born-digital papers and for every
-- paper indexed before this version.
ALTER TABLE papers ADD COLUMN ocr_pages INTEGER NOT NULL DEFAULT 0;
