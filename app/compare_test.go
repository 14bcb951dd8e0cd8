package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// TestCompareWithRealLibrary drives the Compare bindings over a real
// library: a table with evidence in its cells, clear errors for bad input,
// and every export format written where the save dialog says.
func TestCompareWithRealLibrary(t *testing.T) {
	ctx := context.Background()
	be, lib, err := OpenBackend(ctx, filepath.Join(t.TempDir(), "lib"))
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	out := t.TempDir()
	rt := &fakeRuntime{}
	a := newTestApp(be, rt)
	pdfs := t.TempDir()
	copyFixture(t, pdfs, "twocolumn.pdf")
	if _, err := a.IndexFolder(pdfs); err != nil {
		t.Fatal(err)
	}
	papers, _ := a.ListPapers()
	in := CompareInput{PaperIDs: []string{papers[0].ID}, Aspects: []string{"Headings", "Quantum entanglement"}}
	v, err := a.Compare(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Papers) != 1 || len(v.Cells) != 2 || len(v.Warnings) == 0 {
		t.Fatalf("table %+v", v)
	}
	found, nf := v.Cells[0], v.Cells[1]
	if found.NotFound || len(found.Evidence) != 1 || found.Evidence[0].NodeID == "" || len(found.Evidence[0].PathIDs) != len(found.Evidence[0].Path) || found.Evidence[0].Text != found.Text {
		t.Errorf("cell with evidence: %+v", found)
	}
	if !nf.NotFound || len(nf.Evidence) != 0 {
		t.Errorf("aspect the paper never mentions: %+v", nf)
	}
	for _, tc := range []struct {
		name string
		in   CompareInput
		code papertree.Code
	}{
		{"unknown id", CompareInput{PaperIDs: []string{"999"}}, papertree.ENotFound},
		{"not an id", CompareInput{PaperIDs: []string{"abc"}}, papertree.EInvalid},
	} {
		_, err := a.Compare(tc.in)
		var pe *papertree.Error
		if !errors.As(err, &pe) || pe.Code != tc.code {
			t.Errorf("%s: error %v, want %s", tc.name, err, tc.code)
		}
	}
	for _, f := range []string{"csv", "md", "html", "pdf", "docx"} {
		rt.savePath = filepath.Join(out, "table."+f)
		p, err := a.ExportCompare(in, f)
		if err != nil || p != rt.savePath {
			t.Fatalf("export %s: %q %v", f, p, err)
		}
		b, _ := os.ReadFile(p)
		if len(b) == 0 {
			t.Errorf("export %s is empty", f)
		}
		if f == "csv" && !strings.Contains(string(b), "Quantum entanglement,Not found: no sentence of this paper names") {
			t.Errorf("csv:\n%s", b)
		}
	}
	if _, err := a.ExportCompare(in, "xls"); err == nil {
		t.Error("unknown export format accepted")
	}
}
