package store

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/summarize"
)

func TestSummaryEncoding(t *testing.T) {
	seg := "Word embeddings map words to vectors. We train them on co-occurrence counts of a large corpus. " +
		"The resulting vectors capture analogies such as king - man + woman = queen. Training takes two days on one GPU."
	extractive := summarize.Extractive(summarize.Input{PaperTitle: "GloVe", Path: []string{"3 Model", "3.1 Training"},
		Segment: seg, PrevSummary: "Model. Global vectors use matrix factorization and local context windows."})
	for _, tc := range []struct {
		name, text, summary string
		encoded             bool // a BLOB is expected
	}{
		{"extractive summary of its segment", seg, extractive, true},
		{"summary equal to the text", seg, seg, true},
		{"whole text behind a path", seg, "3 Model > 3.1 Training. " + seg, true},
		{"LLM summary sharing little", seg, "The authors describe how the embedding model is trained and what it captures.", false},
		{"empty summary", seg, "", false},
		{"empty text", "", "A summary with no text to copy from, long enough.", false},
		{"short summary", seg, "Word embeddings.", false},
		{"repeated phrase text", strings.Repeat("the same phrase again ", 500), "Intro. " + strings.Repeat("the same phrase again ", 40) + "end", true},
		{"multi-byte text", "Ähnlichkeit über Wörter: 埋め込みベクトルは単語を表す。 Вектора слов обучаются на корпусе.",
			"Einleitung. 埋め込みベクトルは単語を表す。 Вектора слов обучаются на корпусе. (Continues: x.)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cell := summaryCell(tc.text, tc.summary)
			b, isBlob := cell.([]byte)
			if isBlob != tc.encoded {
				t.Fatalf("encoded = %v, want %v (cell %T)", isBlob, tc.encoded, cell)
			}
			if isBlob && len(b) > len(tc.summary)*3/4 {
				t.Errorf("encoding of %d bytes for a %d-byte summary", len(b), len(tc.summary))
			}
			if got := readSummary(tc.text, cell); got != tc.summary {
				t.Errorf("round trip:\n got %q\nwant %q", got, tc.summary)
			}
		})
	}
}

func TestSummaryDecodeDamaged(t *testing.T) {
	text := "Word embeddings map words to vectors. We train them on co-occurrence counts."
	good := encodeSummary(text, "Intro. "+text)
	if good == nil {
		t.Fatal("no encoding")
	}
	for _, tc := range []struct {
		name string
		text string
		cell []byte
	}{
		{"empty blob", text, []byte{}},
		{"unknown tag", text, append([]byte{9}, good[1:]...)},
		{"truncated", text, good[:len(good)-1]},
		{"copy beyond a shorter text", text[:20], good},
		{"literal longer than the cell", text, []byte{summaryCopyTag, 0x7e, 'a'}},
		{"bad varint", text, []byte{summaryCopyTag, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := readSummary(tc.text, tc.cell); got != "" {
				t.Errorf("damaged cell decoded to %q", got)
			}
		})
	}
}

func TestBoxesEncoding(t *testing.T) {
	for _, tc := range []struct {
		name   string
		boxes  []papertree.Box
		want   []papertree.Box // nil: same as boxes
		binary bool
	}{
		{"none", nil, nil, false},
		{"one box", []papertree.Box{{Page: 1, X0: 72, Y0: 100.5, X1: 540, Y1: 160.25}}, nil, true},
		{"float noise rounds to hundredths", []papertree.Box{{Page: 3, X0: 115.84, Y0: 187.31, X1: 496.15999999999997, Y1: 219.72000000000003}},
			[]papertree.Box{{Page: 3, X0: 115.84, Y0: 187.31, X1: 496.16, Y1: 219.72}}, true},
		{"negative and huge pages", []papertree.Box{{Page: 100000, X0: -12.5, Y0: -3, X1: 0, Y1: 14400}, {Page: 0, X0: 1e9, Y0: 2, X1: 1e9 + 1, Y1: 3}}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cell, err := boxesCell(tc.boxes)
			if err != nil {
				t.Fatal(err)
			}
			if _, isBlob := cell.([]byte); isBlob != tc.binary {
				t.Fatalf("binary = %v, want %v", isBlob, tc.binary)
			}
			want := tc.want
			if want == nil {
				want = tc.boxes
			}
			got := readBoxes(cell)
			if len(got) != len(want) {
				t.Fatalf("got %v, want %v", got, want)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("box %d: got %+v, want %+v", i, got[i], want[i])
				}
			}
		})
	}
	t.Run("not finite stays an error", func(t *testing.T) {
		if _, err := boxesCell([]papertree.Box{{Page: 1, X0: math.NaN()}}); err == nil {
			t.Error("NaN box accepted")
		}
		if _, err := boxesCell([]papertree.Box{{Page: 1, X1: math.Inf(1)}}); err == nil {
			t.Error("infinite box accepted")
		}
	})
	t.Run("damaged cells lose the boxes only", func(t *testing.T) {
		good, _ := encodeBoxes([]papertree.Box{{Page: 1, X0: 1, Y0: 2, X1: 3, Y1: 4}})
		for _, cell := range []any{[]byte{}, []byte{boxesBinTag}, good[:len(good)-1], append(append([]byte{}, good...), 0),
			[]byte{boxesBinTag, 0x7f}, `[{"x":`, "", nil, int64(4)} {
			if got := readBoxes(cell); got != nil {
				t.Errorf("%v decoded to %v", cell, got)
			}
		}
	})
}

// TestCompactNodeCells: a saved paper's summaries and boxes are stored in
// the compact forms and read back equal; cells in the forms written before
// migration 0009 (TEXT summary, JSON boxes) still read as before.
func TestCompactNodeCells(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	p := synthPaper("/papers/compact.pdf", 3, 2, 2, 3)
	summarize.Paper(p)
	var leaves []*papertree.Node
	p.Root.Walk(func(path []*papertree.Node) bool {
		if n := path[len(path)-1]; n.IsLeaf() {
			leaves = append(leaves, n)
		}
		return true
	})
	id, err := s.SavePaper(ctx, p, Vectors{}, "fp")
	if err != nil {
		t.Fatal(err)
	}
	var blobs, texts int
	if err := s.r.QueryRowContext(ctx, `SELECT sum(typeof(summary) = 'blob'), sum(typeof(boxes) = 'blob') FROM nodes WHERE paper_id = ?`, id).
		Scan(&blobs, &texts); err != nil {
		t.Fatal(err)
	}
	if blobs == 0 || texts != len(leaves) {
		t.Errorf("compact cells: %d blob summaries, %d blob boxes for %d leaves", blobs, texts, len(leaves))
	}
	got, err := s.LoadPaper(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	checkSame := func(got *papertree.Paper) {
		t.Helper()
		i := 0
		got.Root.Walk(func(path []*papertree.Node) bool {
			n := path[len(path)-1]
			if !n.IsLeaf() {
				return true
			}
			want := leaves[i]
			i++
			if n.Summary != want.Summary || n.Text != want.Text {
				t.Errorf("leaf %d: summary %q, want %q", n.Order, n.Summary, want.Summary)
			}
			if len(n.Boxes) != len(want.Boxes) || len(n.Boxes) > 0 && n.Boxes[0] != want.Boxes[0] {
				t.Errorf("leaf %d: boxes %v, want %v", n.Order, n.Boxes, want.Boxes)
			}
			return true
		})
		if i != len(leaves) {
			t.Errorf("%d leaves loaded, want %d", i, len(leaves))
		}
	}
	checkSame(got)

	// The forms written before 0009, as an older build left them.
	if _, err := s.w.ExecContext(ctx, `UPDATE nodes SET summary = ?, boxes = ? WHERE id = ?`,
		leaves[0].Summary, `[{"page":1,"x0":72,"y0":100,"x1":540,"y1":160}]`, leaves[0].ID); err != nil {
		t.Fatal(err)
	}
	old, err := s.LoadPaper(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	checkSame(old)
	n, err := s.Node(ctx, leaves[0].ID)
	if err != nil || n.Summary != leaves[0].Summary || len(n.Boxes) != 1 {
		t.Errorf("Node of an old-form row: %+v, %v", n, err)
	}
}

// TestOpenLibraryBefore0009: a library written by a build before migration
// 0009 (TEXT summaries, JSON boxes, schema 8) opens, is upgraded, and reads
// its papers whole; papers saved afterwards use the compact cells.
func TestOpenLibraryBefore0009(t *testing.T) {
	ctx := context.Background()
	path := t.TempDir() + "/old.db"
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	p := synthPaper("/papers/old.pdf", 5, 2, 2, 3)
	summarize.Paper(p)
	id, err := s.SavePaper(ctx, p, Vectors{}, "fp")
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.LoadPaper(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	// Rewrite the rows as the older build stored them and step the schema back.
	var leaves []papertree.Node
	want.Root.Walk(func(path []*papertree.Node) bool {
		if n := path[len(path)-1]; n.IsLeaf() {
			leaves = append(leaves, *n)
		}
		return true
	})
	for _, n := range leaves {
		if _, err := s.w.ExecContext(ctx, `UPDATE nodes SET summary = ?, boxes = ? WHERE id = ?`, n.Summary,
			fmt.Sprintf(`[{"page":%d,"x0":%v,"y0":%v,"x1":%v,"y1":%v}]`, n.Boxes[0].Page, n.Boxes[0].X0, n.Boxes[0].Y0, n.Boxes[0].X1, n.Boxes[0].Y1), n.ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.w.ExecContext(ctx, `DELETE FROM schema_migrations WHERE version >= 9; PRAGMA user_version = 8`); err != nil {
		t.Fatal(err)
	}
	// Columns added by later migrations go too, as in a real schema-8 file.
	if _, err := s.w.ExecContext(ctx, `ALTER TABLE papers DROP COLUMN ocr_pages; DROP TABLE removed_files`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, `DROP TABLE paper_edit; DROP TABLE heading_edit; DROP TABLE paper_read_tree;
		DROP INDEX nodes_roots; DROP INDEX nodes_front_matter; DROP INDEX nodes_abstracts`); err != nil {
		t.Fatal(err)
	}
	var blobs int
	s.r.QueryRowContext(ctx, `SELECT count(*) FROM nodes WHERE typeof(summary) = 'blob' OR typeof(boxes) = 'blob'`).Scan(&blobs)
	if blobs != 0 {
		t.Fatalf("%d compact cells left in the old-form library", blobs)
	}
	s.Close()

	s, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("open a schema-8 library: %v", err)
	}
	defer s.Close()
	if v, _ := s.SchemaVersion(ctx); v < 9 {
		t.Errorf("schema %d after opening, want 9 or later", v)
	}
	got, err := s.LoadPaper(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Root, want.Root) {
		t.Error("the old-form paper reads differently after the upgrade")
	}
	p2 := synthPaper("/papers/new.pdf", 6, 2, 2, 3)
	summarize.Paper(p2)
	id2, err := s.SavePaper(ctx, p2, Vectors{}, "fp")
	if err != nil {
		t.Fatal(err)
	}
	s.r.QueryRowContext(ctx, `SELECT count(*) FROM nodes WHERE paper_id = ? AND typeof(boxes) = 'blob'`, id2).Scan(&blobs)
	if blobs == 0 {
		t.Error("a paper saved after the upgrade has no compact cells")
	}
}
