package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/papertree/papertree/backend/papertree"
)

// UserError turns a raw database error into a coded error with a plain
// sentence, so that no SQLite or sqlite-vec message reaches a user as the
// explanation of what went wrong (the raw text stays in the chain, for the
// technical detail). Errors that already carry a code, and errors that are
// not about the database, are returned unchanged.
func UserError(err error) error {
	if err == nil {
		return nil
	}
	// A coded error keeps its code, unless it is "internal" around a
	// database error that says more (a read-only file, a full disk).
	var pe *papertree.Error
	if errors.As(err, &pe) {
		if pe.Code == papertree.EInternal && errors.Is(err, errDiskFull) {
			return papertree.Wrap(err, papertree.EConflict, DiskFullMsg)
		}
		var se sqlite3.Error
		if pe.Code != papertree.EInternal || !errors.As(err, &se) {
			return err
		}
		if ue := UserError(se); papertree.ErrorCode(ue) != papertree.EInternal {
			return papertree.Wrap(err, papertree.ErrorCode(ue), papertree.ErrorMessage(ue))
		}
		return err
	}
	if errors.Is(err, errDiskFull) {
		return papertree.Wrap(err, papertree.EConflict, DiskFullMsg)
	}
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrCorrupt, sqlite3.ErrNotADB, sqlite3.ErrFormat:
			return papertree.Wrap(err, papertree.ECorrupt, damagedMsg)
		case sqlite3.ErrReadonly:
			return papertree.Wrap(err, papertree.EConflict, ReadOnlyMsg)
		case sqlite3.ErrFull:
			return papertree.Wrap(err, papertree.EConflict, DiskFullMsg)
		case sqlite3.ErrBusy, sqlite3.ErrLocked:
			return papertree.Wrap(err, papertree.EConflict, "The library is busy (another program is writing it). Try again in a moment.")
		case sqlite3.ErrIoErr, sqlite3.ErrCantOpen, sqlite3.ErrPerm, sqlite3.ErrAuth:
			return papertree.Wrap(err, papertree.EConflict, "The library file could not be read or written (a disk or permission problem).")
		case sqlite3.ErrNomem:
			return papertree.Wrap(err, papertree.EInternal, "The library ran out of memory.")
		case sqlite3.ErrError:
			if damagedText(se.Error()) {
				return papertree.Wrap(err, papertree.ECorrupt, damagedMsg)
			}
		}
		return papertree.Wrap(err, papertree.EInternal, "The library database reported an unexpected error.")
	}
	if damagedText(err.Error()) {
		return papertree.Wrap(err, papertree.ECorrupt, damagedMsg)
	}
	return err
}

// Plain-words explanations shared by every command and the app.
const (
	damagedMsg  = "The library is damaged: run papertree repair --db FILE to rebuild what can be rebuilt (saved answers are kept)."
	ReadOnlyMsg = "The library is read-only, so nothing can be written to it. Copy it to a writable folder to index papers or save answers."
	DiskFullMsg = "The disk is full: the library could not be written, and nothing was lost. Free some space and try again."
)

// IsDiskFull, IsReadOnly and IsDamaged tell the errors that no other file
// of an indexing job could escape: the job stops on them instead of
// failing every file the same way.
func IsDiskFull(err error) bool {
	return sqliteCode(err) == sqlite3.ErrFull || errors.Is(err, errDiskFull)
}

// errDiskFull marks a write error that a library extension reported in its
// own words (sqlite-vec: "Could not insert a new vector chunk") when the
// file could not grow; see explainWriteError.
var errDiskFull = errors.New("database or disk is full")

// explainWriteError tells a full disk behind an extension's write error:
// sqlite-vec turns SQLITE_FULL into a message of its own, which alone would
// read as damage. When the file has reached its page limit or the disk has
// less than a few MB left, the error is marked as a full disk.
func (s *Store) explainWriteError(ctx context.Context, err error) error {
	if err == nil || IsDiskFull(err) || !IsDamaged(err) {
		return err
	}
	var pages, maxPages, pageSize int64
	c := context.WithoutCancel(ctx)
	if s.w.QueryRowContext(c, `PRAGMA page_count`).Scan(&pages) == nil &&
		s.w.QueryRowContext(c, `PRAGMA max_page_count`).Scan(&maxPages) == nil &&
		s.w.QueryRowContext(c, `PRAGMA page_size`).Scan(&pageSize) == nil {
		// A vec0 chunk is at most a few hundred KB.
		if (maxPages-pages)*pageSize < lowSpace {
			return fmt.Errorf("%w (%w)", err, errDiskFull)
		}
	}
	if s.path != ":memory:" {
		if free, ok := freeBytes(filepath.Dir(s.path)); ok && free < lowSpace {
			return fmt.Errorf("%w (%w)", err, errDiskFull)
		}
	}
	return err
}

// lowSpace is the room under which a failed write is put down to a full
// disk.
const lowSpace = 4 << 20

// IsReadOnly: see IsDiskFull.
func IsReadOnly(err error) bool { return sqliteCode(err) == sqlite3.ErrReadonly }

// IsDamaged: see IsDiskFull.
func IsDamaged(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return papertree.ErrorCode(UserError(se)) == papertree.ECorrupt
	}
	return err != nil && papertree.ErrorCode(err) == papertree.ECorrupt
}

func sqliteCode(err error) sqlite3.ErrNo {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.Code
	}
	return 0
}

// damagedText recognises the messages of SQLite and sqlite-vec that mean
// the file's content is not what this build wrote: missing tables or
// columns, malformed records, vec0 shadow tables that do not match.
func damagedText(s string) bool {
	s = strings.ToLower(s)
	for _, k := range []string{"malformed", "no such table", "no such column", "vec0", "sqlite-vec",
		"chunk", "corrupt", "not a database", "no such module", "unable to open"} {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}
