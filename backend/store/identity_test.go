package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// identityRowsScan is IdentityRows as it read the library before migration
// 0014: one pass over every node with a parent lookup per row. It is the
// oracle the index-driven reads must match.
func identityRowsScan(ctx context.Context, s *Store) ([]IdentityRow, error) {
	out, err := s.IdentityRows(ctx)
	if err != nil {
		return nil, err
	}
	at := map[int64]int{}
	for i := range out {
		at[out[i].ID] = i
		out[i].Front = ""
	}
	// The stored abstract, read again (IdentityRows may have appended leaves).
	rows, err := s.r.QueryContext(ctx, `SELECT id, abstract FROM papers WHERE status = 'ready'`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id int64
		var abs string
		if err := rows.Scan(&id, &abs); err != nil {
			rows.Close()
			return nil, err
		}
		out[at[id]].Abstract = abs
	}
	rows.Close()
	each := func(q string, args []any, f func(id int64, text string, a, b bool)) error {
		rows, err := s.r.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var text string
			var a, b bool
			if err := rows.Scan(&id, &text, &a, &b); err != nil {
				return err
			}
			f(id, text, a, b)
		}
		return rows.Err()
	}
	fm, ab := string(papertree.RoleFrontMatter), string(papertree.RoleAbstract)
	if err := each(`SELECT n.paper_id, n.text, n.role = ?, p.kind = 'root' FROM nodes n NOT INDEXED JOIN nodes p ON p.id = n.parent_id
		WHERE n.kind <> 'root' AND n.kind <> 'section' AND (n.role = ? OR p.kind = 'root') ORDER BY n.paper_id, n.ord`, []any{fm, fm},
		func(id int64, text string, front, rootChild bool) {
			if i, ok := at[id]; ok && (front || rootChild && len(out[i].Front) < frontChars) {
				out[i].Front += text + " "
			}
		}); err != nil {
		return nil, err
	}
	fromLeaves := map[int64]bool{}
	for _, r := range out {
		fromLeaves[r.ID] = r.Abstract == ""
	}
	if err := each(`SELECT n.paper_id, n.text, 0, 0 FROM nodes n NOT INDEXED JOIN nodes p ON p.id = n.parent_id
		WHERE p.role = ? AND n.kind <> 'section' ORDER BY n.paper_id, n.ord`, []any{ab},
		func(id int64, text string, _, _ bool) {
			if i, ok := at[id]; ok && fromLeaves[id] {
				out[i].Abstract += text + " "
			}
		}); err != nil {
		return nil, err
	}
	return out, nil
}

// The identity reads driven by the partial indexes of migration 0014 give
// what the full pass gave, also for trees the builder does not make but
// edits can (a front-matter leaf under a section, an abstract inside a
// chapter, a long run of root leaves), and SQLite uses those indexes.
func TestIdentityRowsMatchFullScan(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	seg := func(kind papertree.Kind, role papertree.Role, text string) *papertree.Node {
		return &papertree.Node{Kind: kind, Role: role, Text: text, Tokens: papertree.CountTokens(text)}
	}
	long := strings.Repeat("Front matter words that run long. ", 20)
	papers := []*papertree.Paper{
		{Title: "Plain", Authors: []string{"A. Author"}, Year: 2020, Root: &papertree.Node{Kind: papertree.KindRoot, Title: "Plain", Children: []*papertree.Node{
			seg(papertree.KindSegment, papertree.RoleFrontMatter, "Ada Lovelace, Analytical Engines Ltd."),
			seg(papertree.KindCaption, "", "Figure 1: a root caption."),
			{Kind: papertree.KindSection, Title: "Abstract", Role: papertree.RoleAbstract, Children: []*papertree.Node{
				seg(papertree.KindSegment, "", "We study engines."), seg(papertree.KindSegment, papertree.RoleFormula, "x = y")}},
			{Kind: papertree.KindSection, Title: "1 Intro", Children: []*papertree.Node{seg(papertree.KindSegment, "", "Body.")}},
		}}},
		{Title: "Stored abstract", Abstract: "Stored abstract text.", Root: &papertree.Node{Kind: papertree.KindRoot, Children: []*papertree.Node{
			seg(papertree.KindSegment, "", long), seg(papertree.KindSegment, "", "A second root leaf past the limit."),
			{Kind: papertree.KindSection, Title: "Abstract", Role: papertree.RoleAbstract, Children: []*papertree.Node{seg(papertree.KindSegment, "", "Leaf abstract.")}},
		}}},
		{Title: "Edited", Root: &papertree.Node{Kind: papertree.KindRoot, Children: []*papertree.Node{
			{Kind: papertree.KindSection, Title: "Front", Children: []*papertree.Node{
				seg(papertree.KindSegment, papertree.RoleFrontMatter, "Moved front matter under a section."),
				{Kind: papertree.KindSection, Title: "Abstract", Role: papertree.RoleAbstract, Children: []*papertree.Node{
					seg(papertree.KindSegment, "", "Nested abstract one."), seg(papertree.KindSegment, "", "Nested abstract two.")}},
			}},
			seg(papertree.KindSegment, papertree.RoleFrontMatter, "Root front matter after a section."),
		}}},
		{Title: "Empty root", Root: &papertree.Node{Kind: papertree.KindRoot}},
	}
	for i, p := range papers {
		p.Path, p.Pages = fmt.Sprintf("/p%d.pdf", i), 1
		if _, err := s.SavePaper(ctx, p, Vectors{}, ""); err != nil {
			t.Fatal(err)
		}
	}
	checkIdentityRows(t, s)
	for _, q := range []string{identityFrontSQL, identityAbstractSQL} {
		// A scan may only walk one of the partial indexes.
		plan := queryPlan(t, s, q)
		for _, line := range strings.Split(plan, "\n") {
			if strings.HasPrefix(line, "SCAN") && !strings.Contains(line, "nodes_roots") &&
				!strings.Contains(line, "nodes_front_matter") && !strings.Contains(line, "nodes_abstracts") {
				t.Errorf("identity read scans the nodes table:\n%s\n%s", q, plan)
			}
		}
	}
}

// TestIdentityRowsMatchFullScanReal checks a real library when
// $PAPERTREE_BENCH_DB names one (a copy of the file, with its write-ahead
// log, is opened and migrated; the file itself is never written).
func TestIdentityRowsMatchFullScanReal(t *testing.T) {
	db := os.Getenv("PAPERTREE_BENCH_DB")
	if db == "" {
		t.Skip("set PAPERTREE_BENCH_DB to a library file to compare its identity rows")
	}
	dst := filepath.Join(t.TempDir(), "copy.db")
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(db + suffix)
		if suffix != "" && os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst+suffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := OpenWith(context.Background(), dst, Options{MustExist: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkIdentityRows(t, s)
}

func checkIdentityRows(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	got, err := s.IdentityRows(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, err := identityRowsScan(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("identity rows differ from the full pass:\n got %+v\nwant %+v", got, want)
	}
}

func queryPlan(t *testing.T, s *Store, q string) string {
	t.Helper()
	rows, err := s.r.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			t.Fatal(err)
		}
		b.WriteString(detail + "\n")
	}
	return b.String()
}
