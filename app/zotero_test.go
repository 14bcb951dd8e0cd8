package app

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/zotero/zoterotest"
)

// The import dialog's picker: ZoteroLibraries lists the user's library and
// a group library kept in the same zotero.sqlite (Zotero's own schema), and
// ImportZoteroLibrary imports only the chosen one through the one job.
func TestImportOneZoteroLibraryThroughApp(t *testing.T) {
	zdir := zoterotest.SharedGroupLibrary(t, filepath.Join("..", "backend", "pdf", "testdata"))
	libs, err := newTestApp(nil, &fakeRuntime{}).ZoteroLibraries(zdir)
	if err != nil {
		t.Fatal(err)
	}
	want := []ZoteroLibraryView{{ID: "1", Type: "user", Name: "My Library", Items: 3}, {ID: "7", Type: "group", Name: zoterotest.GroupName, Items: 2}}
	if !reflect.DeepEqual(libs, want) {
		t.Fatalf("libraries = %+v", libs)
	}
	if _, err := newTestApp(nil, &fakeRuntime{}).ZoteroLibraries(t.TempDir()); papertree.ErrorCode(err) != papertree.EInvalid {
		t.Errorf("a folder without zotero.sqlite: %v", err)
	}

	cases := []struct {
		name    string
		library string
		titles  []string
		code    papertree.Code
	}{
		{name: "the group", library: "7", titles: []string{"Group Paper on Rotated Pages", "Group Paper on Two Columns"}},
		{name: "no such library", library: "99", code: papertree.ENotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			be, lib, err := OpenBackend(context.Background(), filepath.Join(t.TempDir(), "lib"))
			if err != nil {
				t.Fatal(err)
			}
			defer lib.Close()
			a := newTestApp(be, &fakeRuntime{})
			res, err := a.ImportZoteroLibrary(zdir, tc.library)
			if tc.code != "" {
				if papertree.ErrorCode(err) != tc.code {
					t.Fatalf("err = %v, want %s", err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Imported != len(tc.titles) || res.Source != "zotero" {
				t.Errorf("result = %+v", res)
			}
			papers, err := a.ListPapers()
			if err != nil {
				t.Fatal(err)
			}
			var titles []string
			for _, p := range papers {
				titles = append(titles, p.Title)
			}
			slices.Sort(titles)
			if !slices.Equal(titles, tc.titles) {
				t.Errorf("papers %q, want %q", titles, tc.titles)
			}
		})
	}
}
