package zotero

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/internal/shareddata"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/zotero/zoterotest"
)

func TestLibrariesListsGroups(t *testing.T) {
	ctx := context.Background()
	real := shareddata.Dir(t, "zotero", "Zotero")
	dir := zoterotest.GroupLibrary(t, real, filepath.Join("..", "pdf", "testdata"))
	user := LibraryInfo{ID: 1, Type: "user", Name: UserLibraryName, Items: 3}
	group := LibraryInfo{ID: 7, Type: "group", Name: "Lab Reading Group", GroupID: 4242, Items: 2}

	t.Run("real data directory has one library", func(t *testing.T) {
		libs, err := Libraries(ctx, real)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(libs, []LibraryInfo{user}) {
			t.Errorf("libraries = %+v", libs)
		}
	})
	t.Run("with a group library", func(t *testing.T) {
		libs, err := Libraries(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(libs, []LibraryInfo{user, group}) {
			t.Errorf("libraries = %+v", libs)
		}
	})

	titles := func(lib *Library) []string {
		var out []string
		for _, it := range lib.Items {
			out = append(out, it.Title)
		}
		return out
	}
	orig, err := Read(ctx, real, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name        string
		library     int64
		titles      []string
		collections []string
		code        papertree.Code
	}{
		{name: "user library only", library: 1, titles: titles(orig), collections: orig.Collections},
		{name: "group library only", library: 7, titles: []string{"Group Paper on Two Columns", "Group Paper on Rotated Pages"}, collections: []string{"Group Shelf"}},
		{name: "every library", library: 0, titles: append(titles(orig), "Group Paper on Two Columns", "Group Paper on Rotated Pages"), collections: append(append([]string{}, orig.Collections...), "Group Shelf")},
		{name: "no such library", library: 99, code: papertree.ENotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lib, err := Read(ctx, dir, Options{Library: tc.library})
			if tc.code != "" {
				if papertree.ErrorCode(err) != tc.code || !strings.Contains(papertree.ErrorMessage(err), `7 "Lab Reading Group"`) {
					t.Fatalf("err = %v, want %s naming the libraries", err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(titles(lib), tc.titles) || !reflect.DeepEqual(lib.Collections, tc.collections) {
				t.Errorf("titles %q collections %q, want %q %q", titles(lib), lib.Collections, tc.titles, tc.collections)
			}
			for _, it := range lib.Items {
				if len(it.PDFs) != 1 {
					t.Errorf("%s: pdfs %q missing %q", it.Title, it.PDFs, it.Missing)
				}
				if strings.HasPrefix(it.Title, "Group Paper on Two") && !reflect.DeepEqual(it.Collections, []string{"Group Shelf"}) {
					t.Errorf("%s: collections %q", it.Title, it.Collections)
				}
			}
		})
	}
}

func TestFindLibrary(t *testing.T) {
	libs := []LibraryInfo{
		{ID: 1, Type: "user", Name: UserLibraryName},
		{ID: 7, Type: "group", Name: "Lab Reading Group"},
		{ID: 8, Type: "group", Name: "Twins"},
		{ID: 9, Type: "group", Name: "twins"},
		{ID: 10, Type: "group", Name: "42"},
	}
	cases := []struct {
		name, want string
		id         int64
		code       papertree.Code
	}{
		{name: "by id", want: "7", id: 7},
		{name: "by name, any case", want: "lab reading GROUP", id: 7},
		{name: "user library by name", want: "My Library", id: 1},
		{name: "user library by type", want: "user", id: 1},
		{name: "a numeric group name", want: "42", id: 10},
		{name: "a name two groups share", want: "Twins", code: papertree.EInvalid},
		{name: "unknown", want: "Nope", code: papertree.ENotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := FindLibrary(libs, tc.want)
			if tc.code != "" {
				if papertree.ErrorCode(err) != tc.code {
					t.Fatalf("got %+v %v, want %s", l, err, tc.code)
				}
				return
			}
			if err != nil || l.ID != tc.id {
				t.Errorf("got %+v %v, want id %d", l, err, tc.id)
			}
		})
	}
}

// A hand-made database without library ids (not Zotero 5's schema) holds
// one library, the user's; choosing it reads every item.
func TestLibrariesWithoutLibraryTables(t *testing.T) {
	dir := t.TempDir()
	oneItemLibrary(t, dir, "AAAA1111", linkImportedFile, "storage:a.pdf")
	libs, err := Libraries(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(libs, []LibraryInfo{{ID: 1, Type: "user", Name: UserLibraryName, Items: 1}}) {
		t.Errorf("libraries = %+v", libs)
	}
	lib, err := Read(context.Background(), dir, Options{Library: 1})
	if err != nil || len(lib.Items) != 1 {
		t.Fatalf("read library 1: %+v %v", lib, err)
	}
}
