package library

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
)

// A file that failed is not read again by a folder's re-index while it and
// the settings are unchanged (an OCR time-out would cost its whole limit on
// every run); it still counts as failed, with its reason. Naming the file
// itself, or changing it, reads it again.
func TestFailedFileNotReadAgainUnchanged(t *testing.T) {
	dir := t.TempDir()
	copyFixture(t, "twocolumn.pdf", filepath.Join(dir, "a.pdf"))
	bad := filepath.Join(dir, "b.pdf")
	copyFixture(t, "encrypted.pdf", bad)
	ctx := context.Background()
	lib, err := Open(ctx, Config{DBPath: filepath.Join(t.TempDir(), "lib.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	// run indexes paths and returns the summary and whether b.pdf was
	// parsed (its "parsing" event).
	run := func(paths ...string) (Summary, bool) {
		t.Helper()
		var mu sync.Mutex
		var statuses []FileStatus
		sum, err := lib.Index(ctx, paths, func(ev Event) {
			if ev.File == bad {
				mu.Lock()
				statuses = append(statuses, ev.Status)
				mu.Unlock()
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(sum.Failed) != 1 || sum.Failed[0].File != bad || sum.Failed[0].Code != papertree.EEncrypted {
			t.Fatalf("failed %+v, want b.pdf encrypted", sum.Failed)
		}
		return sum, slices.Contains(statuses, StatusParsing)
	}
	for _, tc := range []struct {
		name    string
		before  func()
		paths   []string
		read    bool // b.pdf is parsed again
		unread  bool // its reason says it was not read again
		indexed int
	}{
		{"first index", nil, []string{dir}, true, false, 1},
		{"folder again, unchanged", nil, []string{dir}, false, true, 0},
		{"the file named", nil, []string{bad}, true, false, 0},
		{"folder again after the file changed", func() {
			b, err := os.ReadFile(bad)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(bad, append(b, "\n% changed\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{dir}, true, false, 0},
		{"folder again, unchanged since", nil, []string{dir}, false, true, 0},
	} {
		if tc.before != nil {
			tc.before()
		}
		sum, read := run(tc.paths...)
		if read != tc.read || strings.Contains(sum.Failed[0].Error, "Not read again") != tc.unread || sum.Indexed != tc.indexed {
			t.Errorf("%s: parsed %v, reason %q, indexed %d; want parsed %v, not-read-again note %v, indexed %d",
				tc.name, read, sum.Failed[0].Error, sum.Indexed, tc.read, tc.unread, tc.indexed)
		}
	}
	// The library lists it as failed throughout.
	if p, err := lib.Papers(ctx); err != nil || len(p) != 2 {
		t.Fatalf("papers %d, %v", len(p), err)
	}
}
