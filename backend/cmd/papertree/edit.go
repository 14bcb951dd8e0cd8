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

// editFlags are the metadata fields of "papertree edit", in store.EditFields order.
var editFlags = []struct{ flag, field, help string }{
	{"title", store.FieldTitle, "corrected title"},
	{"authors", store.FieldAuthors, `corrected authors, separated by ";" ("Ada Lovelace; Alan Turing")`},
	{"year", store.FieldYear, "corrected year (four digits; \"\" for unknown)"},
	{"venue", store.FieldVenue, "corrected venue"},
	{"doi", store.FieldDOI, "corrected DOI"},
	{"key", store.FieldKey, "corrected citation key"},
}

// cmdEdit corrects a paper's metadata, reverts one field, or (with no
// field) lists the paper's corrections.
func cmdEdit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("edit", flag.ContinueOnError)
	db := fs.String("db", "", "library database file")
	paper := fs.String("paper", "", "the paper (id or file path)")
	asJSON := fs.Bool("json", false, "print the paper's corrections as JSON")
	undo := fs.String("undo", "", "revert FIELD (title, authors, year, venue, doi, key) to what was read")
	vals := map[string]*string{}
	for _, f := range editFlags {
		vals[f.field] = fs.String(f.flag, "", f.help)
	}
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 || *paper == "" {
		return usageError{"expected --paper ID (and fields to correct, or --undo FIELD)"}
	}
	set := map[string]string{}
	fs.Visit(func(f *flag.Flag) {
		for _, e := range editFlags {
			if f.Name == e.flag {
				set[e.field] = *vals[e.field]
			}
		}
	})
	if *undo != "" && len(set) > 0 {
		return usageError{"--undo reverts one field; give no new values with it"}
	}
	lib, err := openLibrary(ctx, *db, 1)
	if err != nil {
		return err
	}
	defer lib.Close()
	var c library.Corrections
	switch {
	case *undo != "":
		c, err = lib.RevertField(ctx, *paper, *undo)
	case len(set) > 0:
		c, err = lib.EditPaper(ctx, *paper, set)
	default:
		c, err = lib.Corrections(ctx, *paper)
	}
	if err != nil {
		return err
	}
	return printCorrections(stdout, c, *asJSON)
}

// cmdHeading corrects a paper's tree at one node, or undoes a heading correction.
func cmdHeading(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("heading", flag.ContinueOnError)
	db := fs.String("db", "", "library database file")
	paper := fs.String("paper", "", "the paper (id or file path)")
	node := fs.Int64("node", 0, "the node (its id in tree --json): a heading, or for --promote a text segment")
	rename := fs.String("rename", "", "new text of the heading")
	level := fs.Int("level", 0, "new level of the heading (1 = top-level section)")
	merge := fs.Bool("merge", false, "merge the section into the one before it")
	notHeading := fs.Bool("not-heading", false, "the heading is body text: it and its content go to the parent")
	promote := fs.Bool("promote", false, "a line of the segment becomes a heading (--line, default its first line)")
	line := fs.String("line", "", "with --promote: the line to promote")
	undo := fs.Bool("undo", false, "undo the latest heading correction of the paper (or --edit ID)")
	editID := fs.Int64("edit", 0, "with --undo: the correction to undo (its id in edit --json)")
	asJSON := fs.Bool("json", false, "print the paper's corrections as JSON")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 || *paper == "" {
		return usageError{"expected --paper ID and --node N with one of --rename, --level, --merge, --not-heading, --promote (or --undo)"}
	}
	var e library.HeadingEdit
	n := 0
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "rename":
			e.Op, e.Text = papertree.OpRename, *rename
		case "level":
			e.Op, e.Level = papertree.OpLevel, *level
		case "merge":
			if !*merge {
				return
			}
			e.Op = papertree.OpMerge
		case "not-heading":
			if !*notHeading {
				return
			}
			e.Op = papertree.OpNotHeading
		case "promote":
			if !*promote {
				return
			}
			e.Op, e.Text = papertree.OpPromote, *line
		case "undo":
			if !*undo {
				return
			}
		default:
			return
		}
		n++
	})
	if n != 1 {
		return usageError{"give exactly one of --rename, --level, --merge, --not-heading, --promote, --undo"}
	}
	if !*undo && *node <= 0 {
		return usageError{"expected --node N (a node id from tree --json)"}
	}
	if *line != "" && !*promote {
		return usageError{"--line goes with --promote"}
	}
	lib, err := openLibrary(ctx, *db, 1)
	if err != nil {
		return err
	}
	defer lib.Close()
	var c library.Corrections
	if *undo {
		c, err = lib.UndoHeading(ctx, *paper, *editID)
	} else {
		e.NodeID = *node
		c, err = lib.EditHeading(ctx, *paper, e)
	}
	if err != nil {
		return err
	}
	return printCorrections(stdout, c, *asJSON)
}

func printCorrections(w io.Writer, c library.Corrections, asJSON bool) error {
	if asJSON {
		return writeJSON(w, c)
	}
	if c.Empty() {
		fmt.Fprintf(w, "paper %d: no corrections\n", c.PaperID)
		return nil
	}
	fmt.Fprintf(w, "paper %d corrections:\n", c.PaperID)
	for _, f := range c.Fields {
		fmt.Fprintf(w, "  %s: %s (read: %s)\n", f.Field, termSafe(library.FieldText(f.Field, f.Value)), termSafe(library.FieldText(f.Field, f.Read)))
	}
	for _, h := range c.Headings {
		what := ""
		switch h.Op {
		case papertree.OpRename:
			what = fmt.Sprintf("rename %q -> %q", h.Target, h.Arg)
		case papertree.OpLevel:
			what = fmt.Sprintf("level of %q -> %d", h.Target, h.Level)
		case papertree.OpMerge:
			what = fmt.Sprintf("merge %q into the section before it", h.Target)
		case papertree.OpNotHeading:
			what = fmt.Sprintf("%q is not a heading", h.Target)
		case papertree.OpPromote:
			what = fmt.Sprintf("promote %q to a heading", h.Target)
		}
		mark := ""
		if h.Unmatched {
			mark = "  [NOT APPLIED: no such heading in the file any more]"
		}
		fmt.Fprintf(w, "  heading #%d: %s%s\n", h.ID, termSafe(what), mark)
	}
	return nil
}
