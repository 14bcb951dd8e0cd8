package store

import (
	"context"
	"fmt"
)

// OCRKey names one file's OCR reading: its content hash, the languages and
// the version of the reader (ocr.CacheVersion).
type OCRKey struct {
	Hash, Langs, Version string
}

// OCRPages returns the cached readings of the key's pages, by page number
// (each the JSON the reader stored).
func (s *Store) OCRPages(ctx context.Context, k OCRKey) (map[int][]byte, error) {
	if k.Hash == "" {
		return nil, nil
	}
	rows, err := s.r.QueryContext(ctx, `SELECT page, runs FROM ocr_cache WHERE hash = ? AND langs = ? AND version = ?`,
		k.Hash, k.Langs, k.Version)
	if err != nil {
		return nil, fmt.Errorf("read OCR cache: %w", err)
	}
	defer rows.Close()
	out := map[int][]byte{}
	for rows.Next() {
		var page int
		var b []byte
		if err := rows.Scan(&page, &b); err != nil {
			return nil, fmt.Errorf("read OCR cache: %w", err)
		}
		out[page] = b
	}
	return out, rows.Err()
}

// PutOCRPage stores the reading of one page. A read-only library keeps
// nothing (the reading is only lost for next time).
func (s *Store) PutOCRPage(ctx context.Context, k OCRKey, page int, runs []byte) error {
	if s.readOnly || k.Hash == "" {
		return nil
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO ocr_cache(hash, langs, version, page, runs) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT(hash, langs, version, page) DO UPDATE SET runs = excluded.runs`, k.Hash, k.Langs, k.Version, page, runs)
	if err != nil {
		return s.explainWriteError(ctx, fmt.Errorf("write OCR cache: %w", err))
	}
	return nil
}

// DropUnusedOCR deletes the cached readings of files whose content no
// paper, failed file or removed file of the library has any more (an old
// version of a changed file, a pruned file); it returns how many pages.
func (s *Store) DropUnusedOCR(ctx context.Context) (int64, error) {
	if s.readOnly {
		return 0, nil
	}
	res, err := s.w.ExecContext(ctx, `DELETE FROM ocr_cache WHERE hash NOT IN (SELECT hash FROM papers)
		AND hash NOT IN (SELECT hash FROM removed_files)`)
	if err != nil {
		return 0, s.explainWriteError(ctx, fmt.Errorf("drop unused OCR readings: %w", err))
	}
	n, _ := res.RowsAffected()
	return n, nil
}
