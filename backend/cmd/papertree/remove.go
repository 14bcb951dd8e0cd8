package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/papertree/papertree/backend/store"
)

func cmdRemove(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("remove", flag.ContinueOnError)
	db := fs.String("db", "", "library database file")
	asJSON := fs.Bool("json", false, "print the removed papers as JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{"expected at least one paper ID (see papertree list)"}
	}
	ids := make([]int64, 0, len(pos))
	for _, p := range pos {
		id, err := strconv.ParseInt(p, 10, 64)
		if err != nil || id <= 0 {
			return usageError{fmt.Sprintf("%q is not a paper ID (see papertree list)", p)}
		}
		ids = append(ids, id)
	}
	lib, err := openLibrary(ctx, *db, 1)
	if err != nil {
		return err
	}
	defer lib.Close()
	removed, err := lib.Remove(ctx, ids)
	if err != nil {
		return err
	}
	if *asJSON {
		if removed == nil {
			removed = []store.RemovedFile{}
		}
		return writeJSON(stdout, removed)
	}
	for _, r := range removed {
		fmt.Fprintf(stdout, "removed [%d] %s\n  file kept: %s\n", r.PaperID, termSafe(r.Title), termSafe(r.Path))
	}
	fmt.Fprintln(stdout, "Re-indexing their folders leaves them out; index a file by its exact path to add it back.")
	return nil
}
