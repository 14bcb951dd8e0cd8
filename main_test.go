package main

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"
)

func TestParseFlags(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		library string // "" means: the default
		version bool
		wantErr bool
		folders []string // want these (absolute) folders
		bad     int      // arguments reported as not folders
	}{
		{name: "defaults", args: nil},
		{name: "double-dash library", args: []string{"--library", "/tmp/lib"}, library: "/tmp/lib"},
		{name: "equals form", args: []string{"-library=/x"}, library: "/x"},
		{name: "version", args: []string{"--version"}, version: true},
		{name: "missing folder", args: []string{"no/such/papers"}, bad: 1},
		{name: "a file is not a folder", args: []string{"main.go"}, bad: 1},
		{name: "a bad folder beside a valid one", args: []string{"/no/such/folder", "app"}, folders: []string{"app"}, bad: 1},
		{name: "a .bib file is imported", args: []string{"backend/bibtex/testdata/mixed.bib"}, folders: []string{"backend/bibtex/testdata/mixed.bib"}},
		{name: "folders of PDFs", args: []string{"app", "frontend"}, folders: []string{"app", "frontend"}},
		{name: "folder before and after flags", args: []string{"app", "--library", "/tmp/lib", "frontend"}, library: "/tmp/lib", folders: []string{"app", "frontend"}},
		{name: "unknown flag", args: []string{"--nope"}, wantErr: true},
		{name: "missing value", args: []string{"--library"}, wantErr: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			c, err := parseFlags(tc.args, &stderr)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			if tc.library != "" && c.libraryDir != tc.library {
				t.Errorf("library = %q, want %q", c.libraryDir, tc.library)
			}
			if tc.library == "" && c.libraryDir == "" {
				t.Error("default library dir is empty")
			}
			var want []string
			for _, f := range tc.folders {
				abs, _ := filepath.Abs(f)
				want = append(want, abs)
			}
			if !slices.Equal(c.folders, want) {
				t.Errorf("folders = %q, want %q", c.folders, want)
			}
			if len(c.badFolders) != tc.bad {
				t.Errorf("bad folders = %q, want %d", c.badFolders, tc.bad)
			}
			if c.showVersion != tc.version {
				t.Errorf("version = %v", c.showVersion)
			}
		})
	}
}
