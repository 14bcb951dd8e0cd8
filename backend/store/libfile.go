package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

// ApplicationID is written into every library's SQLite header (PRAGMA
// application_id, bytes 68-71; "PTre"). It lets PaperTree tell its own
// files from other programs' SQLite databases (a Zotero library, a
// browser's history) before SQLite writes a byte: such a file given as
// --db is refused and left byte-identical.
const ApplicationID = 0x50547265

// sqliteMagic opens every SQLite 3 database file.
const sqliteMagic = "SQLite format 3\x00"

// fileKind is what inspectFile found at a library path.
type fileKind int

const (
	fileNone    fileKind = iota // no file, or 0 bytes: a new library may be made here
	fileOurs                    // a PaperTree library (our application id)
	fileLegacy                  // a library of an older version: our tables, no application id yet
	fileBlankDB                 // an SQLite database with no tables at all
)

// inspectFile tells what the file at p is without letting SQLite write
// anything: the first 100 bytes are read directly, and only a file whose
// application id is 0 is opened (read-only, immutable unless a WAL holds
// pages) to look at its table names. Any file that is not a PaperTree
// library is refused with a coded error; it is never changed.
func inspectFile(ctx context.Context, p string, size int64) (fileKind, error) {
	if size == 0 {
		// A new library whose first pages are still only in its -wal file
		// (a crash before the first checkpoint) has no header to read yet.
		if w, err := os.Stat(p + "-wal"); err != nil || w.Size() == 0 {
			return fileNone, nil
		}
		return schemaKind(ctx, p)
	}
	f, err := os.Open(p)
	if err != nil {
		return 0, papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("The library file %s cannot be read.", p))
	}
	var hdr [100]byte
	n, err := io.ReadFull(f, hdr[:])
	f.Close()
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return 0, papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("The library file %s cannot be read.", p))
	}
	if n < len(hdr) || string(hdr[:16]) != sqliteMagic {
		return 0, notOurs(p, "it is not a database file, or its header is damaged")
	}
	switch app := binary.BigEndian.Uint32(hdr[68:72]); app {
	case ApplicationID:
		return fileOurs, nil
	case 0:
	default:
		return 0, notOurs(p, fmt.Sprintf("it is another program's database (application id %#08x)", app))
	}
	return schemaKind(ctx, p)
}

// schemaKind tells a library of an older version (our tables, no
// application id) from an empty database and from another program's.
func schemaKind(ctx context.Context, p string) (fileKind, error) {
	names, err := tableNames(ctx, p)
	if err != nil {
		return 0, openError(p, err)
	}
	if len(names) == 0 {
		return fileBlankDB, nil
	}
	has := map[string]bool{}
	for _, n := range names {
		has[n] = true
	}
	if has["schema_migrations"] && has["papers"] && has["nodes"] {
		return fileLegacy, nil
	}
	shown := names
	if len(shown) > 4 {
		shown = append(shown[:4:4], "...")
	}
	return 0, notOurs(p, "it is another program's database (tables "+strings.Join(shown, ", ")+")")
}

// notOurs is the refusal of a file that is not a PaperTree library.
func notOurs(p, why string) error {
	return papertree.Errorf(papertree.EInvalid,
		"%s is not a PaperTree library: %s. PaperTree left it unchanged. Give --db a PaperTree library, or a new file name for \"papertree index\" to create one.", p, why)
}

// tableNames lists the tables of the SQLite file at p through a read-only
// connection that writes nothing: immutable=1 (no locks, no -wal or -shm
// files) unless a non-empty -wal file beside it may hold committed pages,
// which only a normal read-only connection reads.
func tableNames(ctx context.Context, p string) ([]string, error) {
	if walMayHoldPages(p) {
		names, err := tableNamesMode(ctx, p, "mode=ro")
		if err == nil {
			return names, nil
		}
		// A -wal on media that cannot be written (no -shm can be made):
		// the main file alone is what can be read.
	}
	return tableNamesMode(ctx, p, "mode=ro&immutable=1")
}

// walMayHoldPages reports a non-empty -wal file beside the database at p:
// committed pages may be in it, which an immutable connection does not read.
func walMayHoldPages(p string) bool {
	fi, err := os.Stat(p + "-wal")
	return err == nil && fi.Size() > 0
}

func tableNamesMode(ctx context.Context, p, mode string) ([]string, error) {
	db, err := sql.Open(driverName, "file:"+escapeURIPath(p)+"?"+mode)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	sort.Strings(names)
	return names, rows.Err()
}

// stampApplicationID marks a writable library as PaperTree's (new
// libraries, and those of versions before the application id).
func (s *Store) stampApplicationID(ctx context.Context) error {
	var app int64
	if err := s.w.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&app); err != nil {
		return openError(s.path, err)
	}
	if app == ApplicationID {
		return nil
	}
	if _, err := s.w.ExecContext(ctx, fmt.Sprintf(`PRAGMA application_id = %d`, ApplicationID)); err != nil {
		return openError(s.path, err)
	}
	return nil
}

// CheckLibraryFile tells, without writing anything, whether the file at p
// is a PaperTree library (of this version or an older one); a rebuild
// of a damaged library starts only from one.
func CheckLibraryFile(ctx context.Context, p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return papertree.Wrap(err, papertree.ENotFound, fmt.Sprintf("There is no library at %s.", p))
	}
	kind, err := inspectFile(ctx, p, fi.Size())
	if err != nil {
		return err
	}
	if kind != fileOurs && kind != fileLegacy {
		return notOurs(p, "it holds no library")
	}
	return nil
}
