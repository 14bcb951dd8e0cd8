// Package shareddata locates the development data set (../shared/data beside
// the repository) for tests and benchmarks. Tests that need it skip with a
// clear message when it is absent, so a fresh clone still passes.
package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// Find returns the absolute path of the shared data directory, or "" when it
// cannot be found. PAPERTREE_SHARED_DATA overrides the search.
func Find() string {
	if d := os.Getenv("PAPERTREE_SHARED_DATA"); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
		return ""
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			cand := filepath.Join(filepath.Dir(dir), "shared", "data")
			if st, err := os.Stat(cand); err == nil && st.IsDir() {
				return cand
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Dir returns the shared data directory joined with elem, skipping the test
// when it does not exist.
func Dir(tb testing.TB, elem ...string) string {
	tb.Helper()
	d := Find()
	if d == "" {
		tb.Skip("skipping: ../shared/data (the development data set) is not beside the repository; set PAPERTREE_SHARED_DATA to run this test")
	}
	p := filepath.Join(append([]string{d}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("skipping: %s is missing", p)
	}
	return p
}
