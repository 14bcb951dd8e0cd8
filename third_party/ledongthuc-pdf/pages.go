// Copyright 2014 The Go Authors.  All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Added by the papertree patch: walk the page tree once. Reader.Page(i)
// walks the tree from the root for every call, which makes reading all pages
// of a long document quadratic.

package pdf

// maxPages bounds the page tree walk on hostile input.
const maxPages = 1 << 20

// Pages returns every page of the document in order, walking the page tree
// once. Kids that repeat an already visited node (a cycle) are skipped.
func (r *Reader) Pages() []Page {
	out, _ := r.PagesLimit(maxPages)
	return out
}

// PagesLimit is Pages that stops as soon as it has found more than max
// pages (more is then true and the list holds max+1 pages): a file
// declaring a million pages is refused after reading max+1 page objects,
// before anything is allocated per page. max <= 0 means maxPages.
func (r *Reader) PagesLimit(max int) (pages []Page, more bool) {
	if max <= 0 || max > maxPages {
		max = maxPages
	}
	var out []Page
	seen := make(map[objptr]bool)
	var walk func(v Value, depth int)
	walk = func(v Value, depth int) {
		if depth > 64 || v.Kind() != Dict || len(out) > max || !r.tick() {
			return
		}
		if seen[v.ptr] {
			return
		}
		seen[v.ptr] = true
		kids := v.Key("Kids")
		typ := v.Key("Type").Name()
		if typ == "Pages" || (typ != "Page" && kids.Kind() == Array) {
			for i := 0; i < kids.Len() && len(out) <= max; i++ {
				walk(kids.Index(i), depth+1)
			}
			return
		}
		out = append(out, Page{v})
	}
	walk(r.Trailer().Key("Root").Key("Pages"), 0)
	return out, len(out) > max
}

// ObjectID returns the number and generation of the indirect object v was
// read from. For a direct value nested inside an indirect object it is the
// enclosing object's identity; for values not from the file it is 0, 0.
// It lets callers match an outline destination's page reference against
// the pages returned by Pages.
func (v Value) ObjectID() (id uint32, gen uint16) {
	return v.ptr.id, v.ptr.gen
}
