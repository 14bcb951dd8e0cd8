package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/store"
)

// TestReadCommandsNeedALibrary: a mistyped --db must not create a library
// for commands that only read; a truncated (0-byte) library is reported.
func TestReadCommandsNeedALibrary(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "typo.db")
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, db := range []struct{ name, path, want string }{
		{"missing file", missing, "There is no library"},
		{"zero-byte file", empty, "is empty (0 bytes)"},
	} {
		for _, args := range [][]string{
			{"list"}, {"list", "--json"}, {"ask", "what is the method"}, {"tree", "1"}, {"export", "--answer", "1"},
		} {
			t.Run(db.name+"/"+strings.Join(args, " "), func(t *testing.T) {
				out, errs, code := cli(t, append(args, "--db", db.path)...)
				if code != 1 || !strings.Contains(errs, db.want) || out != "" {
					t.Fatalf("exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errs, db.want)
				}
				if _, err := os.Stat(missing); err == nil {
					t.Fatalf("%s created a library at the mistyped path", args[0])
				}
				if fi, _ := os.Stat(empty); fi.Size() != 0 {
					t.Fatalf("%s wrote into the truncated library", args[0])
				}
			})
		}
	}
	// index still creates a library where none is.
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(dir, "a.pdf"))
	if _, errs, code := cli(t, "index", "--db", missing, "--quiet", dir); code != 0 {
		t.Fatalf("index into a new library: exit %d: %s", code, errs)
	}
	rawLib(t, missing, `DELETE FROM papers`) // an empty library
	// An empty library lists as a JSON array, not null.
	out, errs, code := cli(t, "list", "--db", missing, "--json")
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Fatalf("list --json of an empty library = %q (exit %d, %s)", out, code, errs)
	}
}

func rawLib(t *testing.T, path string, qs ...string) { t.Helper(); rawSQL(t, path, qs...) }

// TestAskRefusesUnanswerable: questions without searchable words, a paper
// that failed to index, and budgets below 1 get clear errors, not answers.
func TestAskRefusesUnanswerable(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(dir, "good.pdf"))
	copyFile(t, filepath.Join(fixtures, "notpdf.pdf"), filepath.Join(dir, "diary.pdf"))
	db := filepath.Join(dir, "lib.db")
	if _, errs, code := cli(t, "index", "--db", db, "--quiet", dir); code != 0 {
		t.Fatalf("index: %s", errs)
	}
	out, _, _ := cli(t, "list", "--db", db, "--json")
	var ps []store.PaperInfo
	if err := json.Unmarshal([]byte(out), &ps); err != nil || len(ps) != 2 {
		t.Fatalf("list: %v %s", err, out)
	}
	var failed int64
	for _, p := range ps {
		if p.Status == store.StatusFailed {
			failed = p.ID
		}
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"punctuation", []string{"?!?!"}, 1, "no searchable words"},
		{"star", []string{"*"}, 1, "no searchable words"},
		{"operators", []string{"AND OR NOT"}, 1, "no searchable words"},
		{"emoji", []string{"🤔🎉"}, 1, "no searchable words"},
		{"failed paper", []string{"--papers", strconv.FormatInt(failed, 10), "what is the method"}, 1, "could not be indexed"},
		{"unknown paper", []string{"--papers", "9999", "what is the method"}, 1, "does not exist"},
		{"zero budget", []string{"--budget", "0", "what is the method"}, 2, "--budget"},
		{"negative budget", []string{"--budget", "-5", "what is the method"}, 2, "--budget"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := cli(t, append([]string{"ask", "--db", db}, tt.args...)...)
			if code != tt.code || !strings.Contains(errs, tt.want) || strings.Contains(out, "Evidence") {
				t.Fatalf("exit %d (want %d), stdout %q, stderr %q (want %q)", code, tt.code, out, errs, tt.want)
			}
		})
	}
	if _, errs, code := cli(t, "ask", "--db", db, "what is the method"); code != 0 {
		t.Fatalf("a real question fails: %s", errs)
	}
}
