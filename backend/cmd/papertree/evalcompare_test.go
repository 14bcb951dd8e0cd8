package main

import (
	"path/filepath"
	"testing"
)

func TestEvalCompareUsage(t *testing.T) {
	set := filepath.Join("..", "..", "eval", "testdata", "compare_library150.json")
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"no set", []string{"eval", "compare", "--db", "x.db"}, 2},
		{"stray argument", []string{"eval", "compare", "--set", set, "--db", "x.db", "extra"}, 2},
		{"no db", []string{"eval", "compare", "--set", set}, 2},
		{"missing set file", []string{"eval", "compare", "--set", "nope.json", "--db", "x.db"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, code := cli(t, tt.args...); code != tt.code {
				t.Fatalf("exit code %d, want %d", code, tt.code)
			}
		})
	}
}
