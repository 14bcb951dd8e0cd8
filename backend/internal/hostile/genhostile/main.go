// Command genhostile writes every hostile class of the reliability audit
// (issue 13) at full size into a folder, for measuring `papertree index`
// (peak memory, wall time, messages; see scripts/hostile.sh and the README
// table "Hostile input").
//
//	go run ./backend/internal/hostile/genhostile DIR
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/papertree/papertree/backend/internal/hostile"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: genhostile DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fail(err)
	}
	files := []struct {
		name string
		gen  func() []byte
	}{
		{"h01-number-bomb-1GiB.pdf", func() []byte { return hostile.NumberBomb(1 << 30) }},
		{"h02-number-bomb-2GiB.pdf", func() []byte { return hostile.NumberBomb(2 << 30) }},
		{"h03-array-bomb-1GiB.pdf", func() []byte { return hostile.ArrayBomb(1 << 30) }},
		{"h04-string-bomb-1GiB.pdf", func() []byte { return hostile.StringBomb(1 << 30) }},
		{"h05-cmap-bomb-1GiB-a.pdf", func() []byte { return hostile.CMapBomb(1 << 30) }},
		{"h06-cmap-bomb-1GiB-b.pdf", func() []byte { return hostile.CMapBomb(1 << 30) }},
		{"h07-shared-content-2999-pages.pdf", func() []byte { return hostile.SharedContent(2999, 64<<10) }},
		{"h08-contents-repeat-100000.pdf", func() []byte { return hostile.RepeatedContents(100_000) }},
		{"h09-million-pages.pdf", func() []byte { return hostile.ManyPages(1_000_000) }},
		{"h10-long-word-450k.pdf", func() []byte { return hostile.LongWord(450_000) }},
		{"h11-text-operators-3MB.pdf", func() []byte { return hostile.TextOperators(3_100_000) }},
		{"h12-no-punctuation-600-pages.pdf", func() []byte { return hostile.NoPunctuation(600) }},
		{"h13-no-punctuation-2999-pages.pdf", func() []byte { return hostile.NoPunctuation(2999) }},
		{"h17-one-text-line-8MB.pdf", func() []byte { return hostile.LongTextLine(8 << 20) }},
		{"h18-page-tree-20000-deep.pdf", func() []byte { return hostile.DeepPageTree(20_000) }},
		{"h19-page-tree-loop.pdf", hostile.PageTreeLoop},
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		data := f.gen()
		if err := os.WriteFile(p, data, 0o644); err != nil {
			fail(err)
		}
		fmt.Printf("%s\t%d bytes\n", f.name, len(data))
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "h14-fifo.pdf"), 0o644); err != nil {
		fail(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "h15-dev-zero-link.pdf")); err != nil {
		fail(err)
	}
	sp, err := os.Create(filepath.Join(dir, "h16-sparse-40GiB.pdf"))
	if err != nil {
		fail(err)
	}
	if err := sp.Truncate(40 << 30); err != nil {
		fail(err)
	}
	sp.Close()
	loop := filepath.Join(dir, "h20-symlink-loop.pdf")
	if err := os.Symlink(loop, loop); err != nil {
		fail(err)
	}
	// Unreadable for everyone but root (scripts/hostile.sh runs the
	// indexer as an unprivileged user when it can).
	if err := os.WriteFile(filepath.Join(dir, "h21-no-permission.pdf"), hostile.Good("No permission"), 0); err != nil {
		fail(err)
	}
	fmt.Println("h14-fifo.pdf, h15-dev-zero-link.pdf, h16-sparse-40GiB.pdf, h20-symlink-loop.pdf, h21-no-permission.pdf")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "genhostile:", err)
	os.Exit(1)
}
