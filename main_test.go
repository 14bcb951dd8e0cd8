package main

import (
	"bytes"
	"testing"
)

func TestParseFlags(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		library string // "" means: the default
		version bool
		wantErr bool
	}{
		{name: "defaults", args: nil},
		{name: "double-dash library", args: []string{"--library", "/tmp/lib"}, library: "/tmp/lib"},
		{name: "equals form", args: []string{"-library=/x"}, library: "/x"},
		{name: "version", args: []string{"--version"}, version: true},
		{name: "stray argument", args: []string{"papers/"}, wantErr: true},
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
			if c.showVersion != tc.version {
				t.Errorf("version = %v", c.showVersion)
			}
		})
	}
}
