package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/store"
)

// exportLib indexes the two-column fixture and asks two questions through
// the CLI, so the export reads answers saved by the real ask path.
func exportLib(t *testing.T) (db string, ids []int64) {
	t.Helper()
	dir := t.TempDir()
	db = filepath.Join(dir, "lib.db")
	if _, errs, code := cli(t, "index", "--db", db, "--quiet", filepath.Join(fixtures, "twocolumn.pdf")); code != 0 {
		t.Fatalf("index exit %d: %s", code, errs)
	}
	for _, q := range []string{"What does the method do?", "Which results are reported?"} {
		out, errs, code := cli(t, "ask", "--db", db, "--json", q)
		if code != 0 {
			t.Fatalf("ask exit %d: %s", code, errs)
		}
		var a struct {
			ID int64 `json:"answer_id"`
		}
		if err := json.Unmarshal([]byte(out), &a); err != nil || a.ID == 0 {
			t.Fatalf("ask --json gave no answer_id (%v): %s", err, out)
		}
		ids = append(ids, a.ID)
	}
	return db, ids
}

func TestExport(t *testing.T) {
	db, ids := exportLib(t)
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	first, err := s.Answer(context.Background(), ids[0])
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Evidence) == 0 {
		t.Fatal("the fixture answer has no evidence; the export test would prove nothing")
	}
	excerpt := strings.Fields(first.Evidence[0].Text)[0]
	dir := t.TempDir()

	t.Run("markdown to stdout", func(t *testing.T) {
		out, errs, code := cli(t, "export", "--db", db, "--answer", itoa(ids[0]))
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		for _, want := range []string{"# PaperTree answer report", first.Question, "### Sources", "| Strategy |", "## Bibliography", excerpt} {
			if !strings.Contains(out, want) {
				t.Errorf("markdown lacks %q", want)
			}
		}
	})

	for _, f := range []string{"html", "pdf", "docx", "md"} {
		t.Run("file "+f, func(t *testing.T) {
			path := filepath.Join(dir, "one."+f)
			out, errs, code := cli(t, "export", "--db", db, "--answer", itoa(ids[0]), "--out", path)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if !strings.Contains(out, "wrote "+path+" ("+f+", 1 answer") {
				t.Errorf("summary: %q", out)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			switch f {
			case "pdf":
				if !bytes.HasPrefix(b, []byte("%PDF-")) {
					t.Error("not a PDF")
				}
			case "docx":
				if _, err := zip.NewReader(bytes.NewReader(b), int64(len(b))); err != nil {
					t.Errorf("not a zip: %v", err)
				}
			default:
				if !strings.Contains(string(b), first.Question) {
					t.Error("question missing")
				}
			}
			left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
			if len(left) > 0 {
				t.Errorf("temporary files left behind: %v", left)
			}
		})
	}

	t.Run("history all, oldest first", func(t *testing.T) {
		out, errs, code := cli(t, "export", "--db", db, "--history", "--format", "html")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		a, b := strings.Index(out, "What does the method do?"), strings.Index(out, "Which results are reported?")
		if a < 0 || b < 0 || a > b {
			t.Errorf("history should hold both questions oldest first (at %d, %d)", a, b)
		}
		if !strings.Contains(out, "2 answers") {
			t.Error("history header should count 2 answers")
		}
	})

	t.Run("history last 1", func(t *testing.T) {
		out, errs, code := cli(t, "export", "--db", db, "--history", "1", "--format", "md")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if strings.Contains(out, "What does the method do?") || !strings.Contains(out, "Which results are reported?") {
			t.Errorf("--history 1 should export only the newest answer:\n%s", out)
		}
	})

	t.Run("format from extension", func(t *testing.T) {
		path := filepath.Join(dir, "auto.HTML")
		if _, errs, code := cli(t, "export", "--db", db, "--answer", itoa(ids[1]), "--out", path); code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		b, _ := os.ReadFile(path)
		if !strings.HasPrefix(string(b), "<!DOCTYPE html>") {
			t.Errorf("expected HTML, got %q", b[:min(len(b), 40)])
		}
	})

	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"unknown format", []string{"--answer", "1", "--format", "odt"}, 2, `unknown format "odt" (have: md, html, pdf, docx)`},
		{"unknown extension", []string{"--answer", "1", "--out", filepath.Join(dir, "x.txt")}, 2, `unknown format "txt"`},
		{"unknown answer", []string{"--answer", "999"}, 1, "Answer 999 does not exist. [not_found]"},
		{"bad answer id", []string{"--answer", "abc"}, 2, `bad answer id "abc"`},
		{"neither", []string{"--format", "md"}, 2, "expected --answer ID or --history [N]"},
		{"both", []string{"--answer", "1", "--history", "2"}, 2, "either --answer or --history"},
		{"pdf needs out", []string{"--answer", "1", "--format", "pdf"}, 2, "--out FILE is required for pdf"},
		{"stray argument", []string{"--answer", "1", "extra"}, 2, `unexpected argument "extra"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs, code := cli(t, append([]string{"export", "--db", db}, tc.args...)...)
			if code != tc.code || !strings.Contains(errs, tc.msg) {
				t.Errorf("exit %d, stderr %q; want exit %d with %q", code, errs, tc.code, tc.msg)
			}
		})
	}

	t.Run("missing database is not created", func(t *testing.T) {
		missing := filepath.Join(dir, "nope.db")
		_, errs, code := cli(t, "export", "--db", missing, "--answer", "1")
		if code != 1 || !strings.Contains(errs, "There is no library database at") {
			t.Errorf("exit %d, stderr %q", code, errs)
		}
		if _, err := os.Stat(missing); !os.IsNotExist(err) {
			t.Error("export created a database")
		}
	})
}

func TestExportEmptyHistory(t *testing.T) {
	db := filepath.Join(t.TempDir(), "empty.db")
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, errs, code := cli(t, "export", "--db", db, "--history")
	if code != 1 || !strings.Contains(errs, "There are no saved answers to export.") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestHistoryArgs(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in, want []string
	}{
		{"bare at end", []string{"--history"}, []string{"--history", "0"}},
		{"bare before flag", []string{"--history", "--format", "md"}, []string{"--history", "0", "--format", "md"}},
		{"with number", []string{"--history", "5"}, []string{"--history", "5"}},
		{"single dash", []string{"-history"}, []string{"-history", "0"}},
		{"equals form untouched", []string{"--history=3"}, []string{"--history=3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := historyArgs(tc.in); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
