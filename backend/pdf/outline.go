package pdf

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	lib "github.com/ledongthuc/pdf"
)

// Limits against hostile outlines (cycles are also broken by identity).
const (
	maxOutlineItems = 20000
	maxOutlineDepth = 32
	maxNameTree     = 200000
)

type objID struct {
	id  uint32
	gen uint16
}

func idOf(v lib.Value) objID {
	id, gen := v.ObjectID()
	return objID{id, gen}
}

// readOutline flattens the bookmark tree in document order and resolves
// each item's destination (/Dest or a /GoTo action; explicit arrays, names
// and strings via the catalog's /Dests dictionary or /Names/Dests name
// tree) to a 1-based page number, 0 when it cannot be resolved.
func readOutline(rd *lib.Reader, pages []lib.Page) []OutlineItem {
	root := rd.Trailer().Key("Root")
	outlines := root.Key("Outlines")
	if outlines.Kind() != lib.Dict {
		return nil
	}
	pageNum := make(map[objID]int, len(pages))
	for i, p := range pages {
		pageNum[idOf(p.V)] = i + 1
	}
	named := &namedDests{root: root}

	var out []OutlineItem
	seen := make(map[objID]bool)
	var walk func(first lib.Value, level int)
	walk = func(item lib.Value, level int) {
		for ; item.Kind() == lib.Dict && len(out) < maxOutlineItems; item = item.Key("Next") {
			id := idOf(item)
			if seen[id] {
				return
			}
			seen[id] = true
			title := strings.TrimSpace(strings.Join(strings.Fields(decodeTextString(item.Key("Title").RawString())), " "))
			dest := item.Key("Dest")
			if dest.IsNull() {
				if a := item.Key("A"); a.Key("S").Name() == "GoTo" {
					dest = a.Key("D")
				}
			}
			out = append(out, OutlineItem{Title: title, Level: level, Page: resolveDest(dest, pageNum, named, pages)})
			if level < maxOutlineDepth {
				walk(item.Key("First"), level+1)
			}
		}
	}
	walk(outlines.Key("First"), 1)
	return out
}

func resolveDest(d lib.Value, pageNum map[objID]int, named *namedDests, pages []lib.Page) int {
	for hop := 0; hop < 4; hop++ {
		switch d.Kind() {
		case lib.Array:
			target := d.Index(0)
			switch target.Kind() {
			case lib.Dict:
				return pageNum[idOf(target)]
			case lib.Integer: // a page index (used by remote GoTo; tolerated here)
				if n := int(target.Int64()); n >= 0 && n < len(pages) {
					return n + 1
				}
			}
			return 0
		case lib.Dict: // a destination dictionary {/D [...]}
			d = d.Key("D")
		case lib.Name:
			d = named.lookup(d.Name())
		case lib.String:
			d = named.lookup(d.RawString())
		default:
			return 0
		}
	}
	return 0
}

// namedDests resolves named destinations, building the lookup table on
// first use.
type namedDests struct {
	root  lib.Value
	table map[string]lib.Value
}

func (n *namedDests) lookup(name string) lib.Value {
	if n.table == nil {
		n.table = make(map[string]lib.Value)
		// PDF 1.1: /Dests dictionary in the catalog, keyed by name.
		old := n.root.Key("Dests")
		for _, k := range old.Keys() {
			if len(n.table) >= maxNameTree {
				break
			}
			n.table[k] = old.Key(k)
		}
		// PDF 1.2+: name tree under /Names /Dests.
		seen := make(map[objID]bool)
		var walk func(node lib.Value, depth int)
		walk = func(node lib.Value, depth int) {
			if node.Kind() != lib.Dict || depth > 32 || seen[idOf(node)] && depth > 0 {
				return
			}
			seen[idOf(node)] = true
			names := node.Key("Names")
			for i := 0; i+1 < names.Len() && len(n.table) < maxNameTree; i += 2 {
				n.table[names.Index(i).RawString()] = names.Index(i + 1)
			}
			kids := node.Key("Kids")
			for i := 0; i < kids.Len(); i++ {
				walk(kids.Index(i), depth+1)
			}
		}
		walk(n.root.Key("Names").Key("Dests"), 0)
	}
	return n.table[name]
}

// readInfo decodes the document information dictionary.
func readInfo(v lib.Value) Info {
	get := func(k string) string {
		s := decodeTextString(v.Key(k).RawString())
		return strings.TrimSpace(strings.Map(func(r rune) rune {
			if r < 0x20 && r != '\t' && r != '\n' {
				return -1
			}
			return r
		}, s))
	}
	return Info{
		Title:    get("Title"),
		Author:   get("Author"),
		Subject:  get("Subject"),
		Keywords: get("Keywords"),
		Creator:  get("Creator"),
		Producer: get("Producer"),
	}
}

// decodeTextString decodes a PDF text string: UTF-16BE with a byte order
// mark, UTF-8 with a BOM (PDF 2.0), otherwise PDFDocEncoding.
func decodeTextString(s string) string {
	switch {
	case len(s) >= 2 && s[0] == 0xfe && s[1] == 0xff:
		b := s[2:]
		u := make([]uint16, 0, len(b)/2)
		for i := 0; i+1 < len(b); i += 2 {
			u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
		}
		return string(utf16.Decode(u))
	case len(s) >= 2 && s[0] == 0xff && s[1] == 0xfe: // little-endian, seen in the wild
		b := s[2:]
		u := make([]uint16, 0, len(b)/2)
		for i := 0; i+1 < len(b); i += 2 {
			u = append(u, uint16(b[i+1])<<8|uint16(b[i]))
		}
		return string(utf16.Decode(u))
	case strings.HasPrefix(s, "\xef\xbb\xbf"):
		return strings.ToValidUTF8(s[3:], "\uFFFD")
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		b.WriteRune(pdfDocRune(s[i]))
	}
	return b.String()
}

// pdfDocRune maps one PDFDocEncoding byte (PDF 32000-1, Annex D.2). It
// agrees with Latin-1 except in 0x18-0x1F and 0x80-0x9F.
func pdfDocRune(c byte) rune {
	switch {
	case c >= 0x18 && c <= 0x1f:
		return []rune{0x02d8, 0x02c7, 0x02c6, 0x02d9, 0x02dd, 0x02db, 0x02da, 0x02dc}[c-0x18]
	case c >= 0x80 && c <= 0x9e:
		return []rune{
			0x2022, 0x2020, 0x2021, 0x2026, 0x2014, 0x2013, 0x0192, 0x2044,
			0x2039, 0x203a, 0x2212, 0x2030, 0x201e, 0x201c, 0x201d, 0x2018,
			0x2019, 0x201a, 0x2122, 0xfb01, 0xfb02, 0x0141, 0x0152, 0x0160,
			0x0178, 0x017d, 0x0131, 0x0142, 0x0153, 0x0161, 0x017e,
		}[c-0x80]
	case c == 0x9f:
		return utf8.RuneError
	case c == 0xa0:
		return 0x20ac
	}
	return rune(c)
}
