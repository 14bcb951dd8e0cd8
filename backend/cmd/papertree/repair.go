package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/papertree/papertree/backend/library"
	"github.com/papertree/papertree/backend/papertree"
)

// repairOutput is the contract of "papertree repair --json".
type repairOutput struct {
	library.RepairReport
	Sound bool `json:"sound"`
}

// cmdRepair repairs a damaged library in place (see library.Repair) and
// says what it did. It exits 1 when damage is left that it cannot repair.
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
	lib, err := openLibrary(ctx, *db, 0)
	if err != nil {
		return err
	}
	defer lib.Close()
	rep, err := lib.Repair(ctx)
	if err != nil {
		printRepair(stdout, rep)
		return err
	}
	sound := len(rep.Remaining) == 0 && len(rep.Failed) == 0
	if *asJSON {
		if err := writeJSON(stdout, repairOutput{rep, sound}); err != nil {
			return err
		}
	} else {
		printRepair(stdout, rep)
	}
	if len(rep.Remaining) > 0 {
		return papertree.Errorf(papertree.ECorrupt,
			"Part of the library is damaged beyond repair (%d problems left). Restore it from a backup, or index your papers into a new library; saved answers can be exported first with papertree export --history.", len(rep.Remaining))
	}
	if len(rep.Failed) > 0 {
		return papertree.Errorf(papertree.EConflict, "The library was repaired, but %d papers could not be indexed again (see above).", len(rep.Failed))
	}
	return nil
}

func printRepair(w io.Writer, rep library.RepairReport) {
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
	for _, r := range rep.Remaining {
		fmt.Fprintf(w, "not repaired: %s\n", termSafe(r))
	}
	if len(rep.Remaining) == 0 && len(rep.Failed) == 0 {
		fmt.Fprintln(w, "The library is sound. Saved answers and imported references were kept.")
	}
}
