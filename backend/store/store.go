// Package store keeps a PaperTree library in ONE SQLite file: papers, their
// trees (adjacency list + closure table), a full-text index (FTS5) and dense
// vectors: segments, segment summaries and section bodies as one int8 row
// per paper and space (paper_vectors, see vectors.go), and one vector per
// paper in a sqlite-vec vec0 table (vec_paper) to shortlist papers.
//
// Data flow: treebuild produces a *papertree.Paper, the indexer embeds it and
// calls SavePaper (one transaction per paper) or RecordFailure; retrieve
// reads through LoadPaper, NodePath, Leaves, SectionLeaves, SearchText,
// SearchVectors, LoadVectors and NodeVectors.
//
// Invariants:
//   - A paper row with status 'ready' always has its whole tree: nodes,
//     closure rows, FTS entries and vectors are written in the same
//     transaction as the row, and a replaced paper is deleted in that same
//     transaction. A crash (WAL + transactions) leaves only whole papers.
//   - A 'failed' paper has no nodes; err_code/err_message say why.
//   - The FTS index is external-content over nodes. SavePaper adds a paper's
//     rows in one statement (fast); triggers remove them on every delete path
//     (DeletePaper, Prune, replace, FK cascades), so the index never points
//     at a node that is gone.
//   - paper_vectors rows go with their paper (ON DELETE CASCADE); vec_paper
//     rowids are root node ids and a trigger deletes them with their node.
//     vec_paper is created by EnsureEmbedder with the embedder's dimension;
//     when the embedder changes, every vector is dropped and every paper is
//     marked stale.
//   - Node and paper ids are never reused (AUTOINCREMENT): a stale id gives
//     not_found, never another paper's node.
//
// Scores: SearchText returns -bm25 (higher is better); SearchVectors returns
// cosine similarity (vec0 distance_metric=cosine, Score = 1 - distance).
//
// Connections: file databases use two pools, one writer connection (BEGIN
// IMMEDIATE, so writers - also in other processes - queue on the busy timeout
// instead of failing on lock upgrade) and a pool of readers that see
// consistent WAL snapshots while the writer works. ":memory:" uses one
// connection for both. The build needs -tags sqlite_fts5; sqlite-vec is
// compiled into the binary and runs inside go-sqlite3's SQLite.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sqlitevec "github.com/asg017/sqlite-vec-go-bindings/cgo"
	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/papertree/papertree/backend/papertree"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// busyTimeout is how long a connection waits for a lock held by another
// connection (another process, or the writer while a reader checkpoints)
// before failing with SQLITE_BUSY. Saving a large paper takes well under a
// second, so this is generous.
const busyTimeout = 10 * time.Second

var vecOnce sync.Once

// registerVec makes every new SQLite connection in this process load
// sqlite-vec. The bindings are compiled with SQLITE_CORE and link against the
// SQLite that go-sqlite3 compiles into the binary, so the extension and the
// driver share one SQLite library.
func registerVec() { vecOnce.Do(sqlitevec.Auto) }

var memSeq atomic.Int64

// Store is an open library database. It is safe for concurrent use.
type Store struct {
	w    *sql.DB // one connection; all writes
	r    *sql.DB // readers; == w for in-memory databases
	path string
	// vecMu guards vecDim: the dimension of the vec0 tables (0 = none yet).
	vecMu  sync.RWMutex
	vecDim int
	vecEmb string
	// readOnly: opened without write access (see OpenOptions).
	readOnly bool
	// oneQuestion: never fill the paper-vector cache (Options.OneQuestion).
	oneQuestion bool
	// upgrading is told before an existing library is upgraded (Options.Upgrading).
	upgrading func(from, to int)
	// fts caches full-text collection statistics (see bm25.go).
	fts ftsStats
	// papers caches the paper space for library-wide searches (papercache.go).
	papers paperCache
	// ranges caches every paper's node id range (terms.go).
	ranges rangeCache
	// heads caches the papers' title and author words (papersearch.go).
	heads headCache
	// bg is cancelled by Close, which waits for the background jobs it
	// started (paper-cache fills) before closing the database, so no
	// goroutine reads the file after Close returns.
	bg      context.Context
	stopBG  context.CancelFunc
	jobsMu  sync.Mutex
	closing bool
	jobs    sync.WaitGroup
}

// goBackground runs f in a goroutine Close waits for and reports true,
// or reports false when the store is closing (f does not run).
func (s *Store) goBackground(f func(ctx context.Context)) bool {
	s.jobsMu.Lock()
	defer s.jobsMu.Unlock()
	if s.closing {
		return false
	}
	s.jobs.Add(1)
	go func() {
		defer s.jobs.Done()
		f(s.bg)
	}()
	return true
}

// Open opens (creating if needed) the library database at path and applies
// pending migrations. path ":memory:" opens a private in-memory database.
func Open(ctx context.Context, dbPath string) (*Store, error) {
	return OpenWith(ctx, dbPath, Options{})
}

// Options say how a library file is opened.
type Options struct {
	// MustExist refuses a path with no file instead of creating an empty
	// library there: commands that only read (list, ask, tree, export) must
	// not turn a mistyped path into a new, empty library.
	MustExist bool
	// ReadOnly opens without write access. It is also chosen automatically
	// when the file or its folder is not writable, so a library on
	// read-only media can still be listed and asked.
	ReadOnly bool
	// OneQuestion: the process asks a question and exits (the CLI's ask).
	// The in-memory paper-vector cache (papercache.go) is then never
	// filled: its fill reads every paper vector (about 0.4 s of CPU at
	// 5,000 papers) beside the question, which scans vec0 meanwhile and
	// never uses it.
	OneQuestion bool
	// Upgrading, when set, is called once before an existing library is
	// upgraded to this build's schema (from and to: schema versions), so
	// that the caller can say why opening takes a while: a step may
	// rebuild an index (0015 took 10.7 s at 5,000 papers). It is not
	// called for a new library.
	Upgrading func(from, to int)
}

// OpenWith is Open with options. A file that is not a PaperTree library
// (another program's SQLite database, any other file) is refused (EInvalid)
// and left byte-identical: its header is read before SQLite opens it for
// writing. A file of 0 bytes is refused (ECorrupt) when the library must
// exist, since SQLite would treat it as a new empty database and a library
// truncated by a crash or a bad copy would silently become an empty one;
// otherwise (index) it holds nothing to lose and becomes a new library.
func OpenWith(ctx context.Context, dbPath string, o Options) (*Store, error) {
	if dbPath == "" {
		return nil, papertree.Errorf(papertree.EInvalid, "No database path was given.")
	}
	registerVec()
	s := &Store{path: dbPath, readOnly: o.ReadOnly, oneQuestion: o.OneQuestion, upgrading: o.Upgrading}
	s.bg, s.stopBG = context.WithCancel(context.Background())
	if dbPath != ":memory:" {
		ro, err := checkFile(ctx, dbPath, o.MustExist)
		if err != nil {
			return nil, err
		}
		s.readOnly = s.readOnly || ro
	}
	params := fmt.Sprintf("_foreign_keys=1&_busy_timeout=%d&_synchronous=NORMAL&_cache_size=-16000",
		busyTimeout.Milliseconds())
	if dbPath == ":memory:" {
		// A named shared-cache memory database, so that the pool's connection
		// (kept open for the Store's life) always sees the same data.
		name := fmt.Sprintf("file:papertree-mem-%d?mode=memory&cache=shared&_txlock=immediate&%s", memSeq.Add(1), params)
		db, err := sql.Open(driverName, name)
		if err != nil {
			return nil, fmt.Errorf("open memory database: %w", err)
		}
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		db.SetConnMaxLifetime(0)
		db.SetConnMaxIdleTime(0)
		s.w, s.r = db, db
	} else if s.readOnly {
		if err := s.openReadOnly(ctx, params); err != nil {
			return nil, err
		}
	} else {
		base := "file:" + escapeURIPath(dbPath) + "?_journal_mode=WAL&" + params
		w, err := sql.Open(driverName, base+"&_txlock=immediate")
		if err != nil {
			return nil, fmt.Errorf("open database: %w", err)
		}
		w.SetMaxOpenConns(1)
		w.SetMaxIdleConns(1)
		w.SetConnMaxLifetime(0)
		w.SetConnMaxIdleTime(0)
		r, err := sql.Open(driverName, base+"&_txlock=deferred")
		if err != nil {
			w.Close()
			return nil, fmt.Errorf("open database: %w", err)
		}
		r.SetMaxOpenConns(8)
		r.SetMaxIdleConns(8)
		s.w, s.r = w, r
	}
	if err := s.w.PingContext(ctx); err != nil {
		s.Close()
		return nil, openError(dbPath, err)
	}
	if s.readOnly {
		if err := s.checkSchemaReadOnly(ctx); err != nil {
			s.Close()
			return nil, err
		}
	} else {
		if err := s.migrate(ctx); err != nil {
			s.Close()
			return nil, err
		}
		if err := s.stampApplicationID(ctx); err != nil {
			s.Close()
			return nil, err
		}
		if err := s.convertLegacyVectors(ctx); err != nil {
			s.Close()
			return nil, err
		}
	}
	if err := s.loadEmbedder(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func openError(p string, err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrNotADB || se.Code == sqlite3.ErrCorrupt) {
		return papertree.Wrap(fmt.Errorf("open %s: %w", p, err), papertree.EInvalid,
			"The library file is not a PaperTree database or is damaged.")
	}
	if ue := UserError(err); papertree.ErrorCode(ue) != papertree.EInternal {
		return ue
	}
	return papertree.Wrap(fmt.Errorf("open %s: %w", p, err), papertree.EInternal, "The library database could not be opened.")
}

// escapeURIPath escapes the characters that would end the path part of an
// SQLite URI filename (go-sqlite3 splits the DSN at the first '?').
func escapeURIPath(p string) string {
	r := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
	return r.Replace(p)
}

// Close closes the database. A clean close checkpoints the WAL.
func (s *Store) Close() error {
	s.jobsMu.Lock()
	s.closing = true
	s.jobsMu.Unlock()
	if s.stopBG != nil {
		s.stopBG()
	}
	s.jobs.Wait()
	var errs []error
	if s.r != nil && s.r != s.w {
		errs = append(errs, s.r.Close())
	}
	if s.w != nil {
		errs = append(errs, s.w.Close())
	}
	return errors.Join(errs...)
}

// Path returns the database path the store was opened with.
func (s *Store) Path() string { return s.path }

// migration is one embedded schema step.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the embedded migrations in version order. File names
// are NNNN_description.sql; versions must be unique and positive (a misnamed
// file is caught by the tests, not by a user's database). Gaps are allowed:
// parallel branches reserve numbers, and a library records each applied
// version, so a later-filled gap is still applied.
func migrations() ([]migration, error) { return readMigrations(migrationFS) }

func readMigrations(fsys fs.FS) ([]migration, error) {
	entries, err := fs.ReadDir(fsys, "migrations")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".sql") {
			continue
		}
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %q: name must start with a positive number and '_'", name)
		}
		b, err := fs.ReadFile(fsys, path.Join("migrations", name))
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: name, sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i := 1; i < len(ms); i++ {
		if ms[i].version == ms[i-1].version {
			return nil, fmt.Errorf("migration %q: version %d is used twice", ms[i].name, ms[i].version)
		}
	}
	return ms, nil
}

// migrate applies pending migrations, each in its own IMMEDIATE transaction,
// re-reading the applied version inside the transaction so that two
// processes opening the same new file do not both apply a step.
func (s *Store) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return papertree.Wrap(err, papertree.EInternal, "The database schema is broken in this build.")
	}
	if _, err := s.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT    NOT NULL,
		applied_at INTEGER NOT NULL)`); err != nil {
		return openError(s.path, err)
	}
	latest := 0
	if len(ms) > 0 {
		latest = ms[len(ms)-1].version
	}
	if s.upgrading != nil {
		var cur int
		if err := s.w.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&cur); err != nil {
			return openError(s.path, err)
		}
		if cur > 0 && cur < latest {
			s.upgrading(cur, latest)
		}
	}
	for _, m := range ms {
		if err := s.applyMigration(ctx, m, latest); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) applyMigration(ctx context.Context, m migration, latest int) (err error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migration %s: begin: %w", m.name, err)
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	var cur, done int
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(version), 0),
		(SELECT count(*) FROM schema_migrations WHERE version = ?) FROM schema_migrations`, m.version).Scan(&cur, &done); err != nil {
		return fmt.Errorf("migration %s: read version: %w", m.name, err)
	}
	if cur > latest {
		return papertree.Errorf(papertree.EConflict,
			"The library was written by a newer version of PaperTree (schema %d, this build knows %d).", cur, latest)
	}
	if done > 0 {
		return tx.Rollback()
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		if strings.Contains(err.Error(), "no such module: fts5") {
			return papertree.Wrap(fmt.Errorf("migration %s: %w", m.name, err), papertree.EInternal,
				"This build of PaperTree lacks full-text search (build with -tags sqlite_fts5).")
		}
		if ue := UserError(err); papertree.ErrorCode(ue) != papertree.EInternal {
			return ue
		}
		return papertree.Wrap(fmt.Errorf("migration %s: %w", m.name, err), papertree.EInternal,
			"The library database could not be upgraded.")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)`,
		m.version, m.name, time.Now().UnixMilli()); err != nil {
		return fmt.Errorf("migration %s: record: %w", m.name, err)
	}
	// user_version mirrors schema_migrations so that plain sqlite3 tools can
	// tell the schema version; it is transactional like any header write.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, max(cur, m.version))); err != nil {
		return fmt.Errorf("migration %s: user_version: %w", m.name, err)
	}
	// The application id marks the file as a PaperTree library from its
	// first migration on (see ApplicationID).
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA application_id = %d`, ApplicationID)); err != nil {
		return fmt.Errorf("migration %s: application_id: %w", m.name, err)
	}
	return tx.Commit()
}

// SchemaVersion returns the highest applied migration.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := s.r.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&v)
	return v, err
}

// Meta returns the value stored under key, or "" when the key is absent.
func (s *Store) Meta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.r.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read meta %q: %w", key, err)
	}
	return v, nil
}

// SetMeta stores val under key (settings, fingerprints, ...).
func (s *Store) SetMeta(ctx context.Context, key, val string) error {
	if key == "" {
		return papertree.Errorf(papertree.EInvalid, "A setting needs a name.")
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES (?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, val)
	if err != nil {
		return fmt.Errorf("write meta %q: %w", key, err)
	}
	return nil
}

// inTx runs fn in a write transaction (BEGIN IMMEDIATE) and commits it. A
// cancelled ctx rolls the transaction back and yields an ECanceled error.
func (s *Store) inTx(ctx context.Context, fn func(tx *sql.Tx) error) (err error) {
	defer func() {
		if err != nil && ctx.Err() != nil && papertree.ErrorCode(err) != papertree.ECanceled {
			err = papertree.Wrap(err, papertree.ECanceled, "The operation was cancelled.")
		}
	}()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}
