package store

import (
	"errors"
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
	var pe *papertree.Error
	if errors.As(err, &pe) {
		return err
	}
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrCorrupt, sqlite3.ErrNotADB, sqlite3.ErrFormat:
			return papertree.Wrap(err, papertree.ECorrupt, damagedMsg)
		case sqlite3.ErrReadonly:
			return papertree.Wrap(err, papertree.EConflict, "The library is read-only here, so it cannot be changed. Copy it to a writable folder to index or save answers.")
		case sqlite3.ErrFull:
			return papertree.Wrap(err, papertree.EConflict, "The disk is full, so the library cannot be written. Free some space and try again.")
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

const damagedMsg = "The library database is damaged. Restore it from a backup, or index your papers into a new library."

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
