// Package zotero reads a Zotero 5/6/7 data directory, read-only, into plain
// records: each regular item with its metadata (title, creators, date, venue,
// DOI, citation key), its collections and tags, and the files of its PDF
// attachments resolved to paths on disk.
//
// Data flow: zotero.sqlite (opened with mode=ro&immutable=1, so a running
// Zotero's lock is never touched and nothing is ever written; a private copy
// of it and its write-ahead log when it has one) -> Read ->
// []Item -> backend/library, which stores the metadata and indexes the PDFs.
//
// Invariants:
//   - Read either returns the whole library or a coded error and nothing: a
//     damaged copy of the database imports nothing.
//   - Attachments are resolved without touching the files' contents: stored
//     files under storage/<attachment key>/, linked files by absolute path
//     or relative to the base directory ("attachments:" paths). A missing
//     file is reported on its item (Item.Missing), never an error.
//   - The citation key comes from, in order: Zotero 7's citationKey field,
//     a "Citation Key: ..." line in Extra (Better BibTeX pins keys there),
//     Better BibTeX's own database (better-bibtex.sqlite) when present.
package zotero

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver

	"github.com/papertree/papertree/backend/papertree"
)

// DBFile is the database's name inside a Zotero data directory.
const DBFile = "zotero.sqlite"

// Options tune Read.
type Options struct {
	// BaseDir resolves linked files stored as "attachments:<relative
	// path>" (Zotero's "Linked Attachment Base Directory"). Empty: such
	// attachments are reported as missing with the reason.
	BaseDir string
	// Library, when not 0, reads only that library (Zotero's libraryID:
	// the user's own library or one group library; see Libraries). 0 reads
	// every library in the file, as before group libraries were listed.
	Library int64
}

// Item is one regular Zotero item (not a note, attachment or annotation).
type Item struct {
	Key         string   // Zotero item key
	Type        string   // journalArticle, conferencePaper, ...
	Title       string   //
	Creators    []string // "First Last", in Zotero's order (authors and editors)
	Date        string   // as entered
	Year        int      // 0 when the date has none
	Venue       string   // publication, proceedings, conference, book, university, ...
	DOI         string   //
	CitationKey string   // "" when none is known
	Collections []string // collection paths ("Parent / Child"), sorted
	Tags        []string // sorted
	AddedAt     time.Time
	ModifiedAt  time.Time
	// PDFs are the existing PDF files of the item's attachments.
	PDFs []string
	// Missing describes attachments whose file is not there (or cannot be
	// resolved), one plain sentence each.
	Missing []string
}

// Library is what Read found.
type Library struct {
	Dir         string
	Items       []Item   // regular items, in Zotero's item id order
	Collections []string // every collection path, sorted
}

// LibraryInfo is one library kept in a zotero.sqlite: the user's own
// ("My Library") or a group library the user is a member of. Zotero keeps
// all of them in the one database file and their files in the one storage
// folder.
type LibraryInfo struct {
	ID      int64  `json:"id"`   // Zotero's libraryID
	Type    string `json:"type"` // "user" or "group" (feeds are not listed)
	Name    string `json:"name"` // "My Library", or the group's name
	GroupID int64  `json:"group_id,omitempty"`
	Items   int    `json:"items"` // regular items, not in the trash
}

// UserLibraryName is how Zotero names the user's own library.
const UserLibraryName = "My Library"

var (
	yearRe = regexp.MustCompile(`\b(1[5-9]\d\d|20\d\d|21\d\d)\b`)
	bbtRe  = regexp.MustCompile(`(?mi)^\s*Citation Key\s*:\s*(\S+)\s*$`)
)

// Find returns the zotero.sqlite of dir, which may name the data directory
// or the database file itself.
func Find(dir string) (dataDir, db string, err error) {
	st, err := os.Stat(dir)
	if err != nil {
		return "", "", papertree.Errorf(papertree.ENotFound, "%s does not exist.", dir)
	}
	if !st.IsDir() {
		return filepath.Dir(dir), dir, nil
	}
	db = filepath.Join(dir, DBFile)
	if _, err := os.Stat(db); err != nil {
		// ~/Zotero is the usual place; a user may point at its parent.
		if alt := filepath.Join(dir, "Zotero", DBFile); fileExists(alt) {
			return filepath.Join(dir, "Zotero"), alt, nil
		}
		return "", "", papertree.Errorf(papertree.EInvalid, "%s is not a Zotero data directory: it has no %s.", dir, DBFile)
	}
	return dir, db, nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// openRO opens a SQLite file read-only and immutable: no lock, no journal,
// no write, even while Zotero runs. When the file has a write-ahead log
// (Zotero keeps its recent changes there while it runs, and its database is
// in WAL mode), an immutable open would not see them: the file and its log
// are then copied to a private folder and the copy is read, so the newest
// items come in and the user's files are still never written. The returned
// cleanup removes the copy.
func openRO(path string) (*sql.DB, func(), error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, func() {}, err
	}
	if st, err := os.Stat(abs + "-wal"); err == nil && st.Mode().IsRegular() && st.Size() > 0 {
		return openSnapshot(abs)
	}
	u := url.URL{Scheme: "file", Path: abs, RawQuery: "mode=ro&immutable=1"}
	db, err := sql.Open("sqlite3", u.String())
	return db, func() {}, err
}

// openSnapshot copies a WAL-mode database and its log to a private
// temporary folder and opens the copy; SQLite replays the log into it.
func openSnapshot(abs string) (*sql.DB, func(), error) {
	tmp, err := os.MkdirTemp("", "papertree-zotero-")
	if err != nil {
		return nil, func() {}, err
	}
	cleanup := func() { _ = os.RemoveAll(tmp) }
	dst := filepath.Join(tmp, filepath.Base(abs))
	for _, suffix := range []string{"", "-wal"} {
		if err := copyFile(abs+suffix, dst+suffix); err != nil {
			cleanup()
			return nil, func() {}, err
		}
	}
	u := url.URL{Scheme: "file", Path: dst}
	db, err := sql.Open("sqlite3", u.String())
	if err != nil {
		cleanup()
		return nil, func() {}, err
	}
	return db, func() { _ = db.Close(); cleanup() }, nil
}

// copyFile copies the regular file src to dst (created 0600).
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Read reads the Zotero data directory dir (or its zotero.sqlite).
func Read(ctx context.Context, dir string, opt Options) (*Library, error) {
	var lib *Library
	err := withDB(ctx, dir, func(r *reader) error {
		r.opt = opt
		if opt.Library != 0 {
			libs, err := r.libraries()
			if err != nil {
				return err
			}
			if !slices.ContainsFunc(libs, func(l LibraryInfo) bool { return l.ID == opt.Library }) {
				return papertree.Errorf(papertree.ENotFound, "The Zotero database has no library %d (it has %s).", opt.Library, libraryWords(libs))
			}
		}
		var err error
		lib, err = r.read()
		if err != nil {
			return err
		}
		r.citationKeysFromBBT(lib)
		return nil
	})
	return lib, err
}

// Libraries lists the libraries of the Zotero data directory dir: the
// user's own first, then each group by name, each with its item count.
// A database from before group libraries (no libraries table) has one.
func Libraries(ctx context.Context, dir string) ([]LibraryInfo, error) {
	var libs []LibraryInfo
	err := withDB(ctx, dir, func(r *reader) error {
		var err error
		libs, err = r.libraries()
		return err
	})
	return libs, err
}

// FindLibrary picks the library that want names: its libraryID, or its
// name (case-insensitive; "My Library" or "user" for the user's own). A
// name that two groups share must be given by id.
func FindLibrary(libs []LibraryInfo, want string) (LibraryInfo, error) {
	want = strings.TrimSpace(want)
	if id, err := strconv.ParseInt(want, 10, 64); err == nil {
		for _, l := range libs {
			if l.ID == id {
				return l, nil
			}
		}
	}
	var found []LibraryInfo
	for _, l := range libs {
		if strings.EqualFold(l.Name, want) || (l.Type == "user" && strings.EqualFold(want, "user")) {
			found = append(found, l)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return LibraryInfo{}, papertree.Errorf(papertree.ENotFound, "The Zotero database has no library %q (it has %s).", want, libraryWords(libs))
	default:
		return LibraryInfo{}, papertree.Errorf(papertree.EInvalid, "%d Zotero libraries are named %q: give its id instead (%s).", len(found), want, libraryWords(found))
	}
}

// libraryWords lists libraries for a message: `1 "My Library", 2 "Lab"`.
func libraryWords(libs []LibraryInfo) string {
	if len(libs) == 0 {
		return "none"
	}
	parts := make([]string, len(libs))
	for i, l := range libs {
		parts[i] = fmt.Sprintf("%d %q", l.ID, l.Name)
	}
	return strings.Join(parts, ", ")
}

// withDB opens the zotero.sqlite of dir read-only, checks the whole file
// and runs fn on it; every failure that is not already coded says the
// database is damaged and nothing was imported.
func withDB(ctx context.Context, dir string, fn func(r *reader) error) error {
	dataDir, dbPath, err := Find(dir)
	if err != nil {
		return err
	}
	db, cleanup, err := openRO(dbPath)
	defer cleanup()
	if err != nil {
		return damaged(dbPath, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	// A damaged file often opens fine and fails on the first page read:
	// check the whole file before trusting any of it.
	var check string
	if err := db.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&check); err != nil {
		return damaged(dbPath, err)
	}
	if check != "ok" {
		return damaged(dbPath, errors.New(check))
	}
	r := &reader{ctx: ctx, db: db, dataDir: dataDir}
	if err := r.checkTables(); err != nil {
		return damaged(dbPath, err)
	}
	if err := fn(r); err != nil {
		if ctx.Err() != nil {
			return papertree.Wrap(ctx.Err(), papertree.ECanceled, "The Zotero import was cancelled.")
		}
		var pe *papertree.Error
		if errors.As(err, &pe) {
			return err
		}
		return damaged(dbPath, err)
	}
	return nil
}

func damaged(db string, err error) error {
	return papertree.Wrap(err, papertree.EInvalid,
		"The Zotero database "+db+" could not be read: it is damaged or not a Zotero database. Nothing was imported.")
}

type reader struct {
	ctx     context.Context
	db      *sql.DB
	dataDir string
	opt     Options
	// libraryCols: items and collections have Zotero 5's libraryID column
	// (every real Zotero 5+ database; not some hand-made test files).
	libraryCols bool
}

// regularItems selects the regular items (not notes, attachments or
// annotations; not in the trash) of every library.
const regularItems = `FROM items i JOIN itemTypes t ON t.itemTypeID = i.itemTypeID
		WHERE t.typeName NOT IN ('note', 'attachment', 'annotation')
		AND i.itemID NOT IN (SELECT itemID FROM deletedItems)`

// checkTables makes sure the file has Zotero's tables and notes whether
// they carry library ids.
func (r *reader) checkTables() error {
	var n int
	if err := r.db.QueryRowContext(r.ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('items', 'itemAttachments', 'itemData', 'itemDataValues', 'fields', 'itemTypes')`).Scan(&n); err != nil {
		return err
	}
	if n < 6 {
		return errors.New("missing Zotero tables")
	}
	var cols int
	if err := r.db.QueryRowContext(r.ctx, `SELECT (SELECT count(*) FROM pragma_table_info('items') WHERE name = 'libraryID')
		+ (SELECT count(*) FROM pragma_table_info('collections') WHERE name = 'libraryID')`).Scan(&cols); err != nil {
		return err
	}
	r.libraryCols = cols == 2
	return nil
}

// libraries lists the user library and the group libraries with their
// item counts. Without the libraries table (or library ids) the file holds
// one library, the user's.
func (r *reader) libraries() ([]LibraryInfo, error) {
	var hasTables int
	if err := r.db.QueryRowContext(r.ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('libraries', 'groups')`).Scan(&hasTables); err != nil {
		return nil, err
	}
	if !r.libraryCols || hasTables < 2 {
		var n int
		if err := r.db.QueryRowContext(r.ctx, `SELECT count(*) `+regularItems).Scan(&n); err != nil {
			return nil, err
		}
		return []LibraryInfo{{ID: 1, Type: "user", Name: UserLibraryName, Items: n}}, nil
	}
	rows, err := r.db.QueryContext(r.ctx, `SELECT l.libraryID, l.type, coalesce(g.name, ''), coalesce(g.groupID, 0),
		(SELECT count(*) `+regularItems+` AND i.libraryID = l.libraryID)
		FROM libraries l LEFT JOIN groups g ON g.libraryID = l.libraryID
		WHERE l.type IN ('user', 'group')
		ORDER BY l.type != 'user', lower(coalesce(g.name, '')), l.libraryID`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var libs []LibraryInfo
	for rows.Next() {
		var l LibraryInfo
		if err := rows.Scan(&l.ID, &l.Type, &l.Name, &l.GroupID, &l.Items); err != nil {
			return nil, err
		}
		if l.Type == "user" {
			l.Name = UserLibraryName
		} else if strings.TrimSpace(l.Name) == "" {
			l.Name = fmt.Sprintf("Group %d", l.GroupID)
		}
		libs = append(libs, l)
	}
	return libs, rows.Err()
}

// inLibrary is the SQL condition (and its argument) that keeps the rows of
// the chosen library of table alias t; "" when every library is read.
func (r *reader) inLibrary(t string) (string, []any) {
	if r.opt.Library == 0 || !r.libraryCols {
		return "", nil
	}
	return " AND " + t + ".libraryID = ?", []any{r.opt.Library}
}

func (r *reader) read() (*Library, error) {
	items := map[int64]*Item{}
	var order []int64
	// Regular items: not notes, attachments, annotations; not in the trash.
	cond, args := r.inLibrary("i")
	rows, err := r.db.QueryContext(r.ctx, `SELECT i.itemID, i.key, t.typeName, i.dateAdded, i.dateModified
		`+regularItems+cond+`
		ORDER BY i.itemID`, args...)
	if err != nil {
		// Older schemas (no deletedItems) are not supported: Zotero 5+ has it.
		return nil, err
	}
	for rows.Next() {
		var id int64
		var it Item
		var added, modified any
		if err := rows.Scan(&id, &it.Key, &it.Type, &added, &modified); err != nil {
			rows.Close()
			return nil, err
		}
		it.AddedAt, it.ModifiedAt = zoteroTime(added), zoteroTime(modified)
		items[id] = &it
		order = append(order, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if err := r.fields(items); err != nil {
		return nil, err
	}
	if err := r.creators(items); err != nil {
		return nil, err
	}
	colls, err := r.collections(items)
	if err != nil {
		return nil, err
	}
	if err := r.tags(items); err != nil {
		return nil, err
	}
	if err := r.attachments(items); err != nil {
		return nil, err
	}
	lib := &Library{Dir: r.dataDir, Collections: colls}
	for _, id := range order {
		it := items[id]
		sort.Strings(it.Collections)
		sort.Strings(it.Tags)
		lib.Items = append(lib.Items, *it)
	}
	return lib, nil
}

// zoteroTime reads Zotero's "2006-01-02 15:04:05" (UTC) timestamps, which
// the driver may already have parsed (the columns are declared TIMESTAMP).
func zoteroTime(v any) time.Time {
	switch x := v.(type) {
	case time.Time:
		return x.UTC()
	case []byte:
		return zoteroTime(string(x))
	case string:
		for _, layout := range []string{"2006-01-02 15:04:05", time.RFC3339} {
			if t, err := time.Parse(layout, x); err == nil {
				return t.UTC()
			}
		}
	}
	return time.Time{}
}

// venueFields are the fields that name where an item appeared, by preference.
var venueFields = []string{"publicationTitle", "proceedingsTitle", "conferenceName", "bookTitle", "university", "institution", "repository", "websiteTitle", "publisher"}

func (r *reader) fields(items map[int64]*Item) error {
	rows, err := r.db.QueryContext(r.ctx, `SELECT d.itemID, f.fieldName, v.value
		FROM itemData d JOIN fields f ON f.fieldID = d.fieldID JOIN itemDataValues v ON v.valueID = d.valueID`)
	if err != nil {
		return err
	}
	defer rows.Close()
	venues := map[int64]map[string]string{}
	extras := map[int64]string{}
	for rows.Next() {
		var id int64
		var name string
		var value any
		if err := rows.Scan(&id, &name, &value); err != nil {
			return err
		}
		it := items[id]
		if it == nil {
			continue
		}
		v := strings.TrimSpace(fmt.Sprint(value))
		switch name {
		case "title":
			it.Title = v
		case "date":
			it.Date = v
			if m := yearRe.FindString(v); m != "" {
				it.Year, _ = strconv.Atoi(m)
			}
		case "DOI":
			it.DOI = v
		case "citationKey":
			it.CitationKey = v
		case "extra":
			extras[id] = v
		}
		for _, f := range venueFields {
			if name == f && v != "" {
				if venues[id] == nil {
					venues[id] = map[string]string{}
				}
				venues[id][name] = v
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for id, it := range items {
		for _, f := range venueFields {
			if v := venues[id][f]; v != "" {
				it.Venue = v
				break
			}
		}
		ex := extras[id]
		if it.CitationKey == "" {
			if m := bbtRe.FindStringSubmatch(ex); m != nil {
				it.CitationKey = m[1]
			}
		}
		if it.DOI == "" { // item types without a DOI field keep it in Extra
			if m := regexp.MustCompile(`(?mi)^\s*DOI\s*:\s*(\S+)\s*$`).FindStringSubmatch(ex); m != nil {
				it.DOI = m[1]
			}
		}
	}
	return nil
}

func (r *reader) creators(items map[int64]*Item) error {
	rows, err := r.db.QueryContext(r.ctx, `SELECT ic.itemID, c.firstName, c.lastName
		FROM itemCreators ic JOIN creators c ON c.creatorID = ic.creatorID ORDER BY ic.itemID, ic.orderIndex`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var first, last sql.NullString
		if err := rows.Scan(&id, &first, &last); err != nil {
			return err
		}
		if it := items[id]; it != nil {
			name := strings.TrimSpace(strings.TrimSpace(first.String) + " " + strings.TrimSpace(last.String))
			if name != "" {
				it.Creators = append(it.Creators, name)
			}
		}
	}
	return rows.Err()
}

// collections sets each item's collection paths and returns all of them.
func (r *reader) collections(items map[int64]*Item) ([]string, error) {
	type coll struct {
		name   string
		parent sql.NullInt64
	}
	all := map[int64]coll{}
	cond, args := r.inLibrary("c")
	rows, err := r.db.QueryContext(r.ctx, `SELECT collectionID, collectionName, parentCollectionID FROM collections c WHERE 1`+cond, args...)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id int64
		var c coll
		if err := rows.Scan(&id, &c.name, &c.parent); err != nil {
			rows.Close()
			return nil, err
		}
		all[id] = c
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	pathOf := func(id int64) string {
		var parts []string
		for depth := 0; depth < 64; depth++ { // a cycle in a damaged file must not hang
			c, ok := all[id]
			if !ok {
				break
			}
			parts = append([]string{c.name}, parts...)
			if !c.parent.Valid {
				break
			}
			id = c.parent.Int64
		}
		return strings.Join(parts, " / ")
	}
	var names []string
	for id := range all {
		names = append(names, pathOf(id))
	}
	sort.Strings(names)
	rows, err = r.db.QueryContext(r.ctx, `SELECT collectionID, itemID FROM collectionItems`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var cid, iid int64
		if err := rows.Scan(&cid, &iid); err != nil {
			return nil, err
		}
		if it := items[iid]; it != nil {
			it.Collections = append(it.Collections, pathOf(cid))
		}
	}
	return names, rows.Err()
}

func (r *reader) tags(items map[int64]*Item) error {
	rows, err := r.db.QueryContext(r.ctx, `SELECT it.itemID, t.name FROM itemTags it JOIN tags t ON t.tagID = it.tagID`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return err
		}
		if it := items[id]; it != nil {
			it.Tags = append(it.Tags, name)
		}
	}
	return rows.Err()
}

// Zotero's attachment link modes.
const (
	linkImportedFile = 0
	linkImportedURL  = 1
	linkLinkedFile   = 2
	linkLinkedURL    = 3
)

func (r *reader) attachments(items map[int64]*Item) error {
	rows, err := r.db.QueryContext(r.ctx, `SELECT a.itemID, i.key, a.parentItemID, a.linkMode, a.contentType, a.path,
		(SELECT v.value FROM itemData d JOIN fields f ON f.fieldID = d.fieldID JOIN itemDataValues v ON v.valueID = d.valueID
		 WHERE d.itemID = a.itemID AND f.fieldName = 'title')
		FROM itemAttachments a JOIN items i ON i.itemID = a.itemID
		WHERE a.itemID NOT IN (SELECT itemID FROM deletedItems)
		ORDER BY a.itemID`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var key string
		var parent, mode sql.NullInt64
		var ctype, path, title sql.NullString
		if err := rows.Scan(&id, &key, &parent, &mode, &ctype, &path, &title); err != nil {
			return err
		}
		if int(mode.Int64) == linkLinkedURL || !parent.Valid {
			continue // a web link has no file; standalone files have no item metadata
		}
		it := items[parent.Int64]
		if it == nil {
			continue
		}
		label := strings.TrimSpace(title.String)
		if label == "" {
			label = "attachment " + key
		}
		file, why := r.resolve(key, int(mode.Int64), path.String)
		isPDF := strings.EqualFold(ctype.String, "application/pdf") || strings.EqualFold(filepath.Ext(file), ".pdf")
		switch {
		case why != "":
			it.Missing = append(it.Missing, fmt.Sprintf("%s: %s", label, why))
		case !fileExists(file):
			it.Missing = append(it.Missing, fmt.Sprintf("%s: the file %s is missing", label, r.shown(file)))
		case isPDF:
			it.PDFs = append(it.PDFs, file)
		}
	}
	return rows.Err()
}

// resolve maps an attachment's stored path to a file; why says in plain
// words when it cannot. A stored file ("storage:" and old bare names) must
// stay inside its item's folder storage/<key>/ and a base-directory file
// ("attachments:") inside the base directory, both as written (after
// Clean) and where links lead (after EvalSymlinks): a path such as
// "storage:../../x.pdf" in a crafted or damaged database is skipped and
// reported, never indexed.
func (r *reader) resolve(key string, mode int, p string) (file, why string) {
	switch {
	case p == "":
		return "", "the attachment has no file"
	case strings.HasPrefix(p, "storage:"):
		return r.stored(key, strings.TrimPrefix(p, "storage:"), p)
	case strings.HasPrefix(p, "attachments:"):
		rel := filepath.FromSlash(strings.TrimPrefix(p, "attachments:"))
		if r.opt.BaseDir == "" {
			return "", "a linked file relative to the base directory (" + rel + "), and no base directory was given"
		}
		return inside(r.opt.BaseDir, rel, p, "the base directory")
	case mode == linkLinkedFile || filepath.IsAbs(p):
		return filepath.Clean(p), ""
	case mode == linkImportedFile || mode == linkImportedURL:
		// Very old libraries stored bare names for stored files.
		return r.stored(key, p, p)
	}
	return "", "the attachment path " + p + " cannot be resolved"
}

// stored resolves a stored file's name inside storage/<key>/.
func (r *reader) stored(key, name, p string) (file, why string) {
	if key == "" || key == "." || key == ".." || strings.ContainsAny(key, `/\:`) {
		return "", "the attachment's key " + strconv.Quote(key) + " is not a valid Zotero key, so its file was skipped"
	}
	return inside(filepath.Join(r.dataDir, "storage", key), filepath.FromSlash(name), p, "its Zotero storage folder")
}

// inside joins rel to base and returns the path when it stays inside base,
// as written and where its links lead; otherwise why names the attachment
// path p and the folder (where) it leaves. A file that does not exist is
// returned as is (it is reported as missing).
func inside(base, rel, p, where string) (file, why string) {
	base = filepath.Clean(base)
	file = filepath.Join(base, rel)
	outside := "the attachment path " + p + " points outside " + where + ", so it was skipped"
	if !within(base, file) {
		return "", outside
	}
	realBase, err := filepath.EvalSymlinks(base)
	if err != nil {
		return file, "" // no folder: the file is reported missing
	}
	realFile, err := filepath.EvalSymlinks(file)
	if err != nil {
		if _, lerr := os.Lstat(file); lerr == nil {
			return "", "the attachment path " + p + " is a link that cannot be followed (a loop or a link to nothing), so it was skipped"
		}
		return file, "" // missing, or a folder on the way is: reported as missing
	}
	if !within(realBase, realFile) {
		return "", "the attachment path " + p + " leads outside " + where + " through a link, so it was skipped"
	}
	return file, ""
}

// within reports whether path p is base or inside it (both clean).
func within(base, p string) bool {
	rel, err := filepath.Rel(base, p)
	return err == nil && !filepath.IsAbs(rel) && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// shown is a file path as a report shows it: relative to the data
// directory when inside it.
func (r *reader) shown(file string) string {
	if rel, err := filepath.Rel(r.dataDir, file); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return file
}

// citationKeysFromBBT fills missing citation keys from Better BibTeX's
// database next to zotero.sqlite, when there is one (read-only, immutable).
// Its absence or an unknown layout is not an error: keys just stay empty.
func (r *reader) citationKeysFromBBT(lib *Library) {
	p := filepath.Join(r.dataDir, "better-bibtex.sqlite")
	if !fileExists(p) {
		return
	}
	db, cleanup, err := openRO(p)
	defer cleanup()
	if err != nil {
		return
	}
	defer db.Close()
	rows, err := db.QueryContext(r.ctx, `SELECT itemKey, citationKey FROM citationkey`)
	if err != nil {
		return
	}
	defer rows.Close()
	keys := map[string]string{}
	for rows.Next() {
		var item, ck string
		if rows.Scan(&item, &ck) == nil {
			keys[item] = ck
		}
	}
	for i := range lib.Items {
		if lib.Items[i].CitationKey == "" {
			lib.Items[i].CitationKey = keys[lib.Items[i].Key]
		}
	}
}
