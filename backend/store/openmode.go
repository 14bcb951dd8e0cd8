package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/papertree/papertree/backend/papertree"
)

// ReadOnly reports whether the library was opened without write access.
func (s *Store) ReadOnly() bool { return s.readOnly }

// checkFile inspects the library file before SQLite touches it: a missing
// file (when it must exist), a folder, a file of 0 bytes (when it must
// exist) and any file that is not a PaperTree library are refused with
// plain words and left as they were; ro is true when the file exists but
// cannot be written. Where a library may be created (mustExist false), a
// missing file, a file of 0 bytes and an SQLite database without tables
// become a new library.
func checkFile(ctx context.Context, p string, mustExist bool) (ro bool, err error) {
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if mustExist {
			return false, papertree.Wrap(err, papertree.ENotFound, fmt.Sprintf(
				"There is no library at %s. Check the path; \"papertree index\" creates a new library.", p))
		}
		return false, nil
	case err != nil:
		return false, papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("The library file %s cannot be read.", p))
	case fi.IsDir():
		return false, papertree.Errorf(papertree.EInvalid, "%s is a folder, not a library file.", p)
	case !fi.Mode().IsRegular():
		return false, papertree.Errorf(papertree.EInvalid, "%s is not a regular file, so it cannot be a library.", p)
	}
	kind, err := inspectFile(ctx, p, fi.Size())
	if err != nil {
		return false, err
	}
	switch {
	case kind == fileNone && mustExist:
		return false, papertree.Errorf(papertree.ECorrupt,
			"The library file %s is empty (0 bytes): it was truncated or never written. Restore it from a backup, or delete it to start a new library.", p)
	case kind == fileBlankDB && mustExist:
		return false, notOurs(p, "it is a database without any tables")
	}
	return !writable(p), nil
}

// openReadOnly opens both pools read-only. A WAL library in a folder we
// cannot write has no -shm file to share; SQLite then needs immutable=1
// (no locking: fine for media nobody writes).
func (s *Store) openReadOnly(ctx context.Context, params string) error {
	for _, mode := range []string{"mode=ro", "mode=ro&immutable=1"} {
		db, err := sql.Open(driverName, "file:"+escapeURIPath(s.path)+"?"+mode+"&"+params)
		if err != nil {
			return fmt.Errorf("open database: %w", err)
		}
		db.SetMaxOpenConns(4)
		var n int
		if err = db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master`).Scan(&n); err == nil {
			s.w, s.r = db, db
			return nil
		}
		db.Close()
		if mode != "mode=ro" {
			return openError(s.path, err)
		}
	}
	return nil
}

// checkSchemaReadOnly is migrate for a read-only library: it cannot apply
// anything, so a library that needs an upgrade is refused with plain words.
func (s *Store) checkSchemaReadOnly(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return papertree.Wrap(err, papertree.EInternal, "The database schema is broken in this build.")
	}
	var applied int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&applied); err != nil {
		return openError(s.path, err)
	}
	var legacy int
	_ = s.r.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name IN ('vec_segment', 'vec_summary', 'vec_section')`).Scan(&legacy)
	if applied < len(ms) || legacy > 0 {
		return papertree.Errorf(papertree.EConflict,
			"The library %s was written by an older version of PaperTree and needs an upgrade, but it is read-only. Open it once where it can be written.", s.path)
	}
	return nil
}
