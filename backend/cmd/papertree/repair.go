package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// repairOutput is the contract of "papertree repair --json".
type repairOutput struct {
	library.RepairReport
	// Rebuilt: damage beyond repair in place, so the library was
	// rebuilt into a new file (see library.Rebuild).
	Rebuilt *library.RebuildReport `json:"rebuilt,omitempty"`
	Sound   bool                   `json:"sound"`
}

// cmdRepair repairs a damaged library in place (see library.Repair); when
// that cannot fix it (damaged pages), it rebuilds the library into a new
// file (library.Rebuild) and keeps the damaged one aside. It says what it
// did; it exits 1 only when it could do neither.
func cmdRepair(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("repair", flag.ContinueOnError)
	db := fs.String("db", "", "library database file")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError{"repair takes no arguments besides --db FILE.db"}
	}
	var out repairOutput
	lib, err := openLibrary(ctx, *db, 0)
	rebuild := false
	switch {
	case err == nil:
		out.RepairReport, err = lib.Repair(ctx)
		lib.Close()
		rebuild = papertree.ErrorCode(err) == papertree.ECorrupt || (err == nil && len(out.Remaining) > 0)
		if err != nil && !rebuild {
			printRepair(stdout, out)
			return err
		}
	case papertree.ErrorCode(err) == papertree.ECorrupt && store.CheckLibraryFile(ctx, *db) == nil:
		rebuild = true // too damaged to open: straight to the rebuild
	default:
		return err
	}
	if rebuild {
		rb, err := library.Rebuild(ctx, library.Config{DBPath: *db})
		if err != nil {
			return err
		}
		out.Rebuilt = &rb
	}
	// Files that fail to index (no text layer, ...) are reported as in
	// any index job; they do not make the library unsound.
	out.Sound = out.Rebuilt != nil || len(out.Remaining) == 0
	if *asJSON {
		return writeJSON(stdout, out)
	}
	printRepair(stdout, out)
	return nil
}

func printRepair(w io.Writer, out repairOutput) {
	rep := out.RepairReport
	for _, o := range rep.Recreated {
		fmt.Fprintf(w, "recreated %s\n", o)
	}
	if rep.FTSRebuilt {
		fmt.Fprintln(w, "rebuilt the full-text index from the papers' text")
	}
	if rep.IndexesRebuilt {
		fmt.Fprintln(w, "rebuilt the database indexes")
	}
	if rep.Orphans > 0 {
		fmt.Fprintf(w, "removed %d rows left over from deleted papers\n", rep.Orphans)
	}
	for _, p := range rep.Damaged {
		fmt.Fprintf(w, "damaged: [%d] %s\n", p.ID, termSafe(p.Path))
	}
	for _, p := range rep.Reindexed {
		fmt.Fprintf(w, "indexed again from its PDF: %s\n", termSafe(p))
	}
	for _, p := range rep.Lost {
		fmt.Fprintf(w, "damaged and its PDF is gone (index the file again when it is back): %s\n", termSafe(p))
	}
	for _, f := range rep.Failed {
		fmt.Fprintf(w, "failed again: %s: %s [%s]\n", termSafe(f.File), termSafe(f.Error), f.Code)
	}
	if rb := out.Rebuilt; rb != nil {
		for _, r := range rep.Remaining {
			fmt.Fprintf(w, "cannot be repaired in place: %s\n", termSafe(r))
		}
		s := rb.Salvaged
		fmt.Fprintf(w, "rebuilt the library in a new file: kept %d saved answers, %d imported references, %d dates added; indexed %d papers again from their PDFs\n",
			s.Copied["answers"], s.Copied["paper_ref"], s.Copied["paper_added"], rb.Index.Indexed+rb.Index.Unchanged)
		for t, n := range s.Unreadable {
			fmt.Fprintf(w, "unreadable in the damaged file: %d rows of %s\n", n, t)
		}
		for _, p := range rb.Lost {
			fmt.Fprintf(w, "PDF gone, not in the new library (index it again when it is back): %s\n", termSafe(p))
		}
		for _, f := range rb.Index.Failed {
			fmt.Fprintf(w, "failed: %s: %s [%s]\n", termSafe(f.File), termSafe(f.Error), f.Code)
		}
		fmt.Fprintf(w, "the damaged file was kept as %s\n", termSafe(rb.DamagedCopy))
	}
	if out.Sound {
		fmt.Fprintln(w, "The library is sound. Saved answers and imported references were kept.")
	}
}
