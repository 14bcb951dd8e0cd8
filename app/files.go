package app

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

// FindPDFs returns the PDF files under dir (recursively, by the ".pdf"
// extension in any case), sorted, as absolute paths. Hidden files and
// folders (starting with ".") are skipped, and so are symlinked folders, so a
// link loop cannot make the walk endless. Unreadable sub-folders are skipped;
// an unusable dir itself is an EInvalid error with a user-safe message.
func FindPDFs(dir string) ([]string, error) {
	if strings.TrimSpace(dir) == "" {
		return nil, papertree.Errorf(papertree.EInvalid, "Choose a folder first.")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, papertree.Wrap(err, papertree.EInvalid, "The folder path is not valid.")
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, papertree.Wrap(err, papertree.EInvalid, "The folder does not exist or cannot be read.")
	}
	if !st.IsDir() {
		return nil, papertree.Errorf(papertree.EInvalid, "%s is not a folder.", filepath.Base(abs))
	}
	var out []string
	err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == abs {
				return err
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if p != abs && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".pdf") {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			// A link to a PDF counts; a link to anything else does not.
			if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
				return nil
			}
		} else if !d.Type().IsRegular() {
			return nil
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, papertree.Wrap(err, papertree.EInvalid, "The folder cannot be read.")
	}
	if len(out) == 0 {
		return nil, papertree.Errorf(papertree.EInvalid, "No PDF files were found in %s.", filepath.Base(abs))
	}
	sort.Strings(out)
	return out, nil
}
