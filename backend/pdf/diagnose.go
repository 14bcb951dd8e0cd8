package pdf

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"syscall"

	lib "github.com/ledongthuc/pdf"

	"github.com/papertree/papertree/backend/papertree"
)

// Why a file gave nothing to read, in plain words. Parse ends with "no
// readable pages" or "no text layer" when the library found no page or no
// word; these helpers look at the file again (bounded) to say what is
// actually wrong with it, because the library drops what it cannot read
// without an error: pages nested deeper than its page-tree limit, and a
// piece of text longer than its token limit.

// Limits of the patched library (third_party/ledongthuc-pdf) that drop
// content silently; kept equal to them so the messages name the real limit.
const (
	libMaxPageTreeDepth = 64      // pages.go: PagesLimit stops below this depth
	libMaxTokenBytes    = 4 << 20 // lex.go: maxTokenBytes
)

// FileError says in plain words why path could not be examined or opened
// (err from os.Stat or os.Open): permission denied, a symlink loop, an I/O
// error, else that it cannot be opened. The indexer reports a command-line
// path that fails os.Stat with it, and OpenRegular every failed open.
func FileError(err error) *papertree.Error {
	e := func(code papertree.Code, msg string) *papertree.Error {
		return &papertree.Error{Code: code, Message: msg, Op: "open pdf", Err: err}
	}
	switch {
	case errors.Is(err, fs.ErrPermission):
		return e(papertree.EInvalid, "Permission denied: PaperTree cannot read this file (its permissions do not allow reading it).")
	case errors.Is(err, syscall.ELOOP):
		return e(papertree.EInvalid, "The file is a link that loops back on itself (a symlink loop), so there is no file to read.")
	case errors.Is(err, syscall.ENAMETOOLONG):
		return e(papertree.EInvalid, "The file's path is too long to open.")
	case errors.Is(err, syscall.ENOTDIR):
		return e(papertree.ENotFound, "A part of the file's path is not a folder, so the file cannot be found.")
	case errors.Is(err, syscall.EIO):
		return e(papertree.EInvalid, "The disk reported an error while reading this file.")
	case errors.Is(err, fs.ErrNotExist):
		return e(papertree.ENotFound, "The PDF file does not exist.")
	}
	return e(papertree.EInvalid, "The PDF file cannot be opened.")
}

// noPagesError says why the page tree gave no page: it is missing, it is
// nested deeper than the library reads, it loops, or it holds none.
func noPagesError(rd *lib.Reader) *papertree.Error {
	root := rd.Trailer().Key("Root").Key("Pages")
	if root.Kind() != lib.Dict {
		return coded(papertree.EMalformed, "The PDF has no page tree (its catalog names no pages), so it has no pages to read.", nil)
	}
	type node struct {
		v     lib.Value
		depth int
	}
	type id struct {
		n uint32
		g uint16
	}
	seen := map[id]bool{}
	stack := []node{{root, 0}}
	loops, visited := false, 0
	for len(stack) > 0 && visited < 1<<16 {
		nd := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if nd.v.Kind() != lib.Dict {
			continue
		}
		visited++
		if nd.depth > libMaxPageTreeDepth {
			return coded(papertree.ETooComplex, fmt.Sprintf(
				"The PDF is too complex to read safely, so it was skipped: its page tree is nested more than %d levels deep, so no page can be reached.",
				libMaxPageTreeDepth), nil)
		}
		if n, g := nd.v.ObjectID(); n != 0 {
			if seen[id{n, g}] {
				loops = true
				continue
			}
			seen[id{n, g}] = true
		}
		kids := nd.v.Key("Kids")
		for i := kids.Len() - 1; i >= 0; i-- {
			stack = append(stack, node{kids.Index(i), nd.depth + 1})
		}
	}
	if loops {
		return coded(papertree.EMalformed, "The PDF's page tree loops back on itself and leads to no page.", nil)
	}
	if visited <= 1 {
		return coded(papertree.EMalformed, "The PDF's page tree holds no pages.", nil)
	}
	return coded(papertree.EMalformed, "The PDF has no readable pages (its page tree holds no page objects that can be read).", nil)
}

// noTextError says why pages gave no word: a piece of text longer than
// the library reads in one piece (an 8 MB line of text is dropped whole),
// else that there is no text layer. Only the first pages' content streams
// are scanned, within the document's decode budget.
func noTextError(ctx context.Context, pages []lib.Page) *papertree.Error {
	const maxScanPages = 50
	longest := int64(0)
	for i, p := range pages {
		if i >= maxScanPages || ctx.Err() != nil {
			break
		}
		_ = protect(func() {
			c := p.V.Key("Contents")
			if c.Kind() == lib.Array {
				for j := 0; j < c.Len() && j < 64; j++ {
					longest = max(longest, longestString(c.Index(j)))
				}
				return
			}
			longest = max(longest, longestString(c))
		})
	}
	if longest > libMaxTokenBytes {
		return coded(papertree.ETooComplex, fmt.Sprintf(
			"The PDF is too complex to read safely, so it was skipped: a page holds one piece of text of %.1f MB, more than the %d MB PaperTree reads as one piece, so none of its text could be read.",
			float64(longest)/(1<<20), libMaxTokenBytes>>20), nil)
	}
	return coded(papertree.ENoText,
		"The PDF has no text layer (it may be a scan or consist only of images); it would need OCR first.", nil)
}

// longestString returns the length in bytes of the longest string (a
// literal "(...)" or a hex "<...>") in a content stream.
func longestString(v lib.Value) int64 {
	if v.Kind() != lib.Stream {
		return 0
	}
	rc := v.Reader()
	defer rc.Close()
	r := bufio.NewReaderSize(rc, 64<<10)
	var longest int64
	for {
		c, err := r.ReadByte()
		if err != nil {
			return longest
		}
		switch c {
		case '%': // a comment, to the end of the line
			for c != '\n' && c != '\r' && err == nil {
				c, err = r.ReadByte()
			}
		case '(':
			n, depth := int64(0), 1
			for depth > 0 {
				c, err = r.ReadByte()
				if err != nil {
					return max(longest, n)
				}
				switch c {
				case '\\':
					_, err = r.ReadByte()
				case '(':
					depth++
				case ')':
					depth--
				}
				n++
			}
			longest = max(longest, n-1)
		case '<':
			if next, err := r.Peek(1); err == nil && next[0] == '<' {
				r.ReadByte()
				continue
			}
			n := int64(0)
			for {
				c, err = r.ReadByte()
				if err != nil || c == '>' {
					break
				}
				n++
			}
			longest = max(longest, n)
		}
		if err == io.EOF {
			return longest
		}
	}
}
