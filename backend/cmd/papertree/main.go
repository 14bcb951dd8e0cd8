// Command papertree is the headless command-line interface of PaperTree. It
// never imports Wails: everything goes through backend/library, the same
// composition root the desktop app uses.
//
// The JSON outputs of parse, index, tree and eval are contracts used by
// acceptance scripts; change them only additively.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"syscall"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

const usage = `papertree - structure-aware paper library (headless CLI)

Usage:
  papertree parse [--no-outline] [--json] FILE.pdf
  papertree index --db FILE.db [--json] [--prune] [--workers N] PATH...
  papertree tree  --db FILE.db [--json] PAPER          (PAPER = id or file path)
  papertree list  --db FILE.db [--json]
  papertree search --db FILE.db [--json] [--limit N] QUERY   (papers ranked by relevance, with snippet and section path)
  papertree remove --db FILE.db [--json] ID...      (remove papers from the library; the files stay)
  papertree ask   --db FILE.db [--json] [--papers ID,...] [--strategy NAME] [--budget TOKENS] QUESTION
  papertree export --db FILE.db (--answer ID[,ID...] | --history [N]) [--format md|html|pdf|docx|bib] [--out FILE] [--title T]
  papertree import zotero --db FILE.db [--base-dir DIR] [--library ID|NAME] [--json] ZOTERO_DIR
  papertree import zotero --list-libraries [--json] ZOTERO_DIR
  papertree import bibtex --db FILE.db [--json] FILE.bib
  papertree eval trees  --gold DIR --pdfs DIR [--no-outline] [--json]
  papertree eval meta   --gold FILE.json --pdfs DIR [--pdfs DIR ...] [--json]
  papertree eval qasper --data FILE.json [--strategy NAME] [--budget N] [--limit N] [--predictions OUT.jsonl] [--json]
  papertree compare --db FILE.db [--json | --format md|csv] [--papers ID,...] [--aspects "A;B;C"] [--out FILE]
  papertree eval library --db FILE.db --questions FILE.json [--strategies a,b] [--budget N] [--json]
  papertree eval questions --set FILE.json --pdfs DIR [--db FILE.db] [--budget N] [--json]
  papertree eval compare --db FILE.db --set FILE.json [--json]
  papertree eval search --db FILE.db --set FILE.json [--json]
  papertree bench query --db FILE.db [--n 200] [--scales 1,10,100] [--json]
  papertree structures --db FILE.db [--json]          (build missing discourse trees ahead of time)
  papertree repair --db FILE.db [--json]              (rebuild what a damaged library can rebuild)
  papertree edit --db FILE.db --paper ID [--title T] [--authors "A; B"] [--year Y] [--venue V] [--doi D] [--key K] [--undo FIELD] [--json]
  papertree heading --db FILE.db --paper ID --node N (--rename T | --level L | --merge | --not-heading | --promote [--line TEXT]) [--json]
  papertree heading --db FILE.db --paper ID --undo [--edit ID]
  papertree version

Run "papertree COMMAND -h" for the flags of one command.
`

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// memLimit is the soft memory limit of the process unless $GOMEMLIMIT
// says otherwise: the garbage collector works harder near it instead of
// letting the heap grow to twice the live data (a 400,000-word document
// being indexed alongside others peaked at 388 MB without it).
//
// `bench query` runs without it: it measures the questions of the app,
// a long-lived process with no such limit, whose paper caches at 5,000
// papers hold about as much live data as the limit; under the limit the
// collector ran near-continuously (a third of bench query's CPU, library-wide
// p50 CPU 54 ms instead of 21 ms).
const memLimit = 300 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" && (len(os.Args) < 2 || os.Args[1] != "bench") {
		debug.SetMemoryLimit(memLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	stopProfile := startProfile(os.Getenv("PAPERTREE_CPUPROFILE"))
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stopProfile()
	stop()
	os.Exit(code)
}

// startProfile writes a CPU profile of the command to path (the
// PAPERTREE_CPUPROFILE environment variable; "" writes none): how a
// one-shot command such as ask spends its time is measured by merging the
// profiles of many runs (go tool pprof BIN a.prof b.prof ...). Package
// initialisation runs before it: GODEBUG=inittrace=1 times that.
func startProfile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "papertree: PAPERTREE_CPUPROFILE: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "papertree: PAPERTREE_CPUPROFILE: %v\n", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// run executes one command and returns the process exit code:
// 0 success, 1 failure, 2 usage error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	var err error
	switch cmd {
	case "parse":
		err = cmdParse(ctx, rest, stdout, stderr)
	case "index":
		err = cmdIndex(ctx, rest, stdout, stderr)
	case "tree":
		err = cmdTree(ctx, rest, stdout, stderr)
	case "list":
		err = cmdList(ctx, rest, stdout, stderr)
	case "remove":
		err = cmdRemove(ctx, rest, stdout, stderr)
	case "search":
		err = cmdSearch(ctx, rest, stdout, stderr)
	case "bench":
		err = cmdBench(ctx, rest, stdout, stderr)
	case "ask":
		err = cmdAsk(ctx, rest, stdout, stderr)
	case "eval":
		err = cmdEval(ctx, rest, stdout, stderr)
	case "compare":
		err = cmdCompare(ctx, rest, stdout, stderr)
	case "export":
		err = cmdExport(ctx, rest, stdout, stderr)
	case "import":
		err = cmdImport(ctx, rest, stdout, stderr)
	case "structures":
		err = cmdStructures(ctx, rest, stdout, stderr)
	case "repair":
		err = cmdRepair(ctx, rest, stdout, stderr)
	case "edit":
		err = cmdEdit(ctx, rest, stdout, stderr)
	case "heading":
		err = cmdHeading(ctx, rest, stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, "papertree", version)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
	default:
		fmt.Fprintf(stderr, "papertree: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	if err == nil {
		return 0
	}
	var ue usageError
	if errors.As(err, &ue) || errors.Is(err, flag.ErrHelp) {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "papertree %s: %s\n", cmd, termText(err.Error()))
		}
		return 2
	}
	fmt.Fprintf(stderr, "papertree %s: %s\n", cmd, termText(describe(err))) // messages name files and quote input
	return 1
}

type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// describe renders an error for the terminal: the user-safe message, the
// code, and the technical chain for coded errors that carry one.
func describe(err error) string {
	err = store.UserError(err) // no raw SQLite/sqlite-vec message as the explanation
	code := papertree.ErrorCode(err)
	if code == papertree.EInternal {
		return err.Error()
	}
	msg := papertree.ErrorMessage(err)
	if err.Error() == msg { // no more to say than the message
		return fmt.Sprintf("%s [%s]", msg, code)
	}
	return fmt.Sprintf("%s [%s]\n  detail: %v", msg, code, err)
}

// parseFlags parses flags that may appear before or after positional
// arguments ("parse FILE --json" and "parse --json FILE" both work); "--"
// ends flag parsing.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(os.Stderr)
				fs.Usage()
				return nil, err
			}
			return nil, usageError{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
