package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// LLMCacheKey is the cache key of an LLM operation's output: the hex sha256
// of op, model and every input, each length-prefixed so that no two
// different input lists hash the same bytes ("ab","c" vs "a","bc").
func LLMCacheKey(op, model string, inputs ...string) string {
	h := sha256.New()
	var n [8]byte
	for _, s := range append([]string{op, model}, inputs...) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// CacheGet returns the cached value for key; ok is false on a miss.
func (s *Store) CacheGet(ctx context.Context, key string) (value string, ok bool, err error) {
	err = s.r.QueryRowContext(ctx, `SELECT value FROM llm_cache WHERE key = ?`, key).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("llm cache get: %w", err)
	}
	return value, true, nil
}

// CachePut stores value under key (replacing an older value). op and model
// are kept for inspection and for CacheClear.
func (s *Store) CachePut(ctx context.Context, key, op, model, value string) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO llm_cache(key, op, model, value, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value, created_at = excluded.created_at`,
		key, op, model, value, time.Now().UnixMilli())
	if err != nil {
		return fmt.Errorf("llm cache put: %w", err)
	}
	return nil
}

// CacheClear removes the cached outputs of op ("" = all) and returns how many.
func (s *Store) CacheClear(ctx context.Context, op string) (int64, error) {
	res, err := s.w.ExecContext(ctx, `DELETE FROM llm_cache WHERE ? = '' OR op = ?`, op, op)
	if err != nil {
		return 0, fmt.Errorf("llm cache clear: %w", err)
	}
	return res.RowsAffected()
}
