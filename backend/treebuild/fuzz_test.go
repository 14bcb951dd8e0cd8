package treebuild

import (
	"context"
	"encoding/binary"
	"math"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/pdf"
)

// docFromBytes turns fuzz bytes into pages of runs: every 12 bytes make one
// run (page, x, y, size, width, style, text from a small alphabet that
// includes digits, punctuation, section-like words and odd Unicode), with
// raw float bits sometimes used so that NaN/Inf/huge values reach Build.
func docFromBytes(data []byte) *pdf.Document {
	words := []string{"1", "Introduction", "2.1", "Method", "A.", "References", "Figure", "3:", "the", "of", "-", "compu-", "tation", ".", "IV.", "Abstract", "Chapter", "\ufb01", "\u00ad", "\x00", "é", "....", "12", "(a)", "•", "Table", "and", "Results", ""}
	nPages := 1
	if len(data) > 0 {
		nPages = int(data[0]%5) + 1
	}
	doc := &pdf.Document{}
	for i := 0; i < nPages; i++ {
		doc.Pages = append(doc.Pages, pdf.Page{Number: i + 1, Width: 612, Height: 792})
	}
	if len(data) > 1 && data[1]%7 == 0 {
		doc.Pages[0].Width = math.NaN()
		doc.Pages[0].Height = 0
	}
	for k := 2; k+12 <= len(data); k += 12 {
		b := data[k : k+12]
		p := int(b[0]) % nPages
		r := pdf.Run{
			Text:   words[int(b[1])%len(words)] + words[int(b[2])%len(words)],
			Font:   []string{"Times-Roman", "Times-Bold", "Helvetica", ""}[b[3]%4],
			Size:   float64(b[4]%24) + 0.5*float64(b[5]%2),
			X:      float64(binary.LittleEndian.Uint16(b[6:8])%700) - 40,
			Y:      float64(binary.LittleEndian.Uint16(b[8:10])%900) - 40,
			W:      float64(b[10]) * 1.5,
			Bold:   b[3]%4 == 1,
			Italic: b[11]%5 == 0,
		}
		switch b[11] % 17 {
		case 1:
			r.X = math.Inf(1)
		case 2:
			r.Size = math.NaN()
		case 3:
			r.W = -5
		case 4:
			r.Rotated = true
		case 5:
			r.Y = math.Float64frombits(binary.LittleEndian.Uint64(append(b[4:10:10], 0x7f, 0xef)))
		}
		doc.Pages[p].Runs = append(doc.Pages[p].Runs, r)
	}
	if len(data) > 2 && data[2]%3 == 0 {
		doc.Outline = []pdf.OutlineItem{{Title: "Introduction", Level: 1, Page: 1}, {Title: "Method", Level: 3, Page: 9}, {Title: "", Level: 0, Page: -1}, {Title: "References", Level: 1, Page: 0}}
	}
	return doc
}

func FuzzBuild(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
	seed := make([]byte, 1200)
	for i := range seed {
		seed[i] = byte(i*37 + i/7)
	}
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		doc := docFromBytes(data)
		for _, useOutline := range []bool{true, false} {
			opts := DefaultOptions()
			opts.UseOutline = useOutline
			opts.MaxSegmentTokens = 16 + len(data)%64
			p, err := Build(context.Background(), doc, opts)
			if err != nil {
				if papertree.ErrorCode(err) == papertree.EInternal {
					t.Fatalf("internal error (a recovered panic): %v", err)
				}
				continue
			}
			checkTree(t, p, opts.MaxSegmentTokens)
		}
	})
}

// checkTree asserts the invariants every built tree must satisfy.
func checkTree(t *testing.T, p *papertree.Paper, max int) {
	t.Helper()
	if p.Root == nil || p.Root.Kind != papertree.KindRoot || p.Root.Level != 0 {
		t.Fatalf("bad root %+v", p.Root)
	}
	order := 0
	p.Root.Walk(func(path []*papertree.Node) bool {
		n := path[len(path)-1]
		if n.Order != order {
			t.Fatalf("order %d, want %d", n.Order, order)
		}
		order++
		if len(path) > 1 {
			parent := path[len(path)-2]
			if n.Level != parent.Level+1 {
				t.Fatalf("level %d under parent level %d", n.Level, parent.Level)
			}
			if parent.IsLeaf() {
				t.Fatal("leaf with children")
			}
		}
		if n.IsLeaf() {
			if n.Kind == papertree.KindSegment && n.Tokens > max {
				t.Fatalf("segment of %d tokens > %d", n.Tokens, max)
			}
			if n.PageStart < 1 || n.PageEnd < n.PageStart {
				t.Fatalf("leaf pages %d-%d", n.PageStart, n.PageEnd)
			}
			for _, b := range n.Boxes {
				for _, v := range []float64{b.X0, b.X1, b.Y0, b.Y1} {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Fatalf("box with %v", v)
					}
				}
			}
		}
		return true
	})
}

// FuzzTables lays out a "Table N" caption over a grid whose cell
// positions, baselines (staggered or not) and texts come from the input,
// so that both readings of tables.go (plain and relaxed) see odd grids;
// every table leaf must read back as a table.
func FuzzTables(f *testing.F) {
	f.Add([]byte("\x05\x04\x0c\x07\x20\x03\x00\x11\x30\x09\x41\x05"))
	f.Add([]byte("Model 0.255 0.339 12 24 staggered rows 7 7 7 7 7 7 7 7"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4 {
			return
		}
		p := newPage(1)
		p.text(150, 80, titleSt, "Fuzzed Tables")
		p.text(72, 120, sec, "1 Results")
		p.text(72, 140, small, "Table 1: A fuzzed grid.")
		words := []string{"Model", "0.255", "81.0", "12", "Copy", "seq-acc", "−", "307M", "(Acc)", "x"}
		ncol := 2 + int(data[0])%6
		y := 156.0
		for i := 1; i+ncol <= len(data) && y < 700; i += ncol {
			x := 72.0
			for c := 0; c < ncol; c++ {
				b := data[i+c]
				p.text(x, y+float64(b%5), body, words[int(b)%len(words)])
				x += 20 + float64(b%64)
			}
			y += 4 + float64(data[i]%16)
		}
		p.para(72, y+12, 460, body, lorem(2, 3))
		paper, err := Build(context.Background(), &pdf.Document{Pages: []pdf.Page{p.page}}, DefaultOptions())
		if err != nil {
			t.Fatalf("build: %v", err)
		}
		checkTree(t, paper, DefaultOptions().MaxSegmentTokens)
		paper.Root.Walk(func(path []*papertree.Node) bool {
			if n := path[len(path)-1]; n.Role == papertree.RoleTable && !papertree.IsTableText(n.Text) {
				t.Fatalf("table leaf does not read as a table: %q", n.Text)
			}
			return true
		})
	})
}
