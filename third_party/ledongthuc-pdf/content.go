// Copyright 2014 The Go Authors.  All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Patched (papertree): this file replaces the upstream Page.Content with an
// interpreter that
//   - does not emit a junk glyph after every TJ operator (upstream called
//     showText("\n"), which the font encoding decoded into a stray glyph),
//   - splits strings into character codes using the font's CMap codespace,
//     so two-byte (Type0/Identity-H) fonts get one glyph per code with the
//     width from the descendant font's /W and /DW arrays,
//   - applies word spacing (Tw), Type 3 FontMatrix widths and falls back
//     to an estimated width when a simple font has no /Widths,
//   - follows Form XObjects (Do) with their /Matrix and /Resources,
//   - caches parsed fonts per Reader instead of re-parsing the ToUnicode
//     CMap at every Tf operator,
//   - ignores operators with the wrong number of operands instead of
//     panicking (one bad operator used to lose the whole page).

package pdf

import (
	"math"
	"strings"
)

// maxGlyphsPerPage bounds the work done on one hostile page.
const maxGlyphsPerPage = 500_000

// maxMemo bounds the per-CMap decode cache (4-byte codes could otherwise
// fill it without bound).
const maxMemo = 1 << 16

// maxFormDepth bounds Form XObject nesting (and breaks reference cycles).
const maxFormDepth = 12

type fontKey struct {
	ptr  objptr
	name string
}

// fontInfo is everything Content needs from a font dictionary, parsed once.
type fontInfo struct {
	name      string // BaseFont, subset prefix removed
	enc       TextEncoding
	cm        *cmap // non-nil when codes are split by a CMap codespace
	composite bool  // Type0: codes are CIDs (two bytes unless cm says otherwise)
	hasToUni  bool
	first     int
	widths    []float64        // simple fonts, in text space units per 1 point of font size
	noWidths  bool             // simple font without /Widths: widths are estimated
	missing   float64          // FontDescriptor /MissingWidth, text space units
	single    [256]*singleCode // simple fonts: decoded codes, filled lazily
	cidW      map[int]float64
	dw        float64
	flags     int
	weight    float64
	italic    float64 // ItalicAngle
}

func (r *Reader) font(res Value, name string) *fontInfo {
	fv := res.Key("Font").Key(name)
	key := fontKey{fv.ptr, name}
	if fv.ptr == (objptr{}) {
		key.name = name + "\x00" + fv.String()
	}
	r.mu.Lock()
	fi, ok := r.fonts[key]
	r.mu.Unlock()
	if ok {
		return fi
	}
	fi = safeFontInfo(fv)
	r.mu.Lock()
	if r.fonts == nil {
		r.fonts = make(map[fontKey]*fontInfo)
	}
	r.fonts[key] = fi
	r.mu.Unlock()
	return fi
}

// safeFontInfo parses a font, falling back to a raw-byte font when its
// dictionary is too damaged to read: one bad font must not lose a page.
func safeFontInfo(fv Value) (fi *fontInfo) {
	defer func() {
		if recover() != nil {
			fi = &fontInfo{enc: &nopEncoder{}, noWidths: true}
		}
	}()
	return newFontInfo(fv)
}

func newFontInfo(fv Value) *fontInfo {
	fi := &fontInfo{name: fv.Key("BaseFont").Name()}
	if i := strings.Index(fi.name, "+"); i >= 0 {
		fi.name = fi.name[i+1:]
	}
	sub := fv.Key("Subtype").Name()
	desc := fv.Key("FontDescriptor")
	if sub == "Type0" {
		fi.composite = true
		d := fv.Key("DescendantFonts").Index(0)
		if fi.name == "" {
			fi.name = strings.TrimLeft(d.Key("BaseFont").Name(), "")
			if i := strings.Index(fi.name, "+"); i >= 0 {
				fi.name = fi.name[i+1:]
			}
		}
		desc = d.Key("FontDescriptor")
		fi.dw = 1000
		if v := d.Key("DW"); v.Kind() == Integer || v.Kind() == Real {
			fi.dw = v.Float64()
		}
		fi.cidW = parseCIDWidths(d.Key("W"))
	}
	if sub == "Type3" && fi.name == "" {
		fi.name = "Type3"
	}
	fi.flags = int(desc.Key("Flags").Int64())
	fi.weight = desc.Key("FontWeight").Float64()
	fi.italic = desc.Key("ItalicAngle").Float64()

	if tu := fv.Key("ToUnicode"); tu.Kind() == Stream {
		if m := readCmap(tu); m != nil {
			fi.cm = m
			fi.enc = m
			fi.hasToUni = true
		}
	}
	if fi.enc == nil {
		if fi.composite {
			enc := fv.Key("Encoding")
			if enc.Kind() == Name && enc.Name() == "UniGB-UCS2-H" {
				fi.enc = &ucs2Encoder{}
			} else {
				fi.enc = &nopEncoder{}
			}
		} else {
			fi.enc = simpleEncoder(fv, desc, sub)
		}
	}

	if !fi.composite {
		scale := 0.001
		if sub == "Type3" {
			m := fv.Key("FontMatrix")
			if m.Len() == 6 && m.Index(0).Float64() != 0 {
				scale = math.Abs(m.Index(0).Float64())
			}
		}
		fi.first = int(fv.Key("FirstChar").Int64())
		w := fv.Key("Widths")
		if w.Kind() == Array && w.Len() > 0 {
			n := w.Len()
			if n > 65536 {
				n = 65536
			}
			fi.widths = make([]float64, n)
			for i := 0; i < n; i++ {
				fi.widths[i] = w.Index(i).Float64() * scale
			}
		} else if std := std14Metrics(fi.name); std != nil && sub != "Type3" {
			fi.first = 32
			fi.widths = std
		} else {
			fi.noWidths = true
		}
		fi.missing = desc.Key("MissingWidth").Float64() * scale
	}
	return fi
}

// simpleEncoder is getEncoder for simple fonts, with /Differences layered
// over /BaseEncoding, or over the embedded Type 1 program's built-in
// encoding, or StandardEncoding for a Type 1 font without /Encoding.
func simpleEncoder(fv, desc Value, subtype string) TextEncoding {
	enc := fv.Key("Encoding")
	var builtin *[256]rune
	if subtype == "Type1" || subtype == "MMType1" {
		if enc.Kind() == Null || (enc.Kind() == Dict && enc.Key("BaseEncoding").IsNull()) {
			builtin = builtinEncoding(desc)
			if builtin == nil && enc.Kind() == Null && fv.Key("ToUnicode").IsNull() {
				t := standardEncoding
				builtin = &t
			}
		}
	}
	switch {
	case enc.Kind() == Dict:
		base := &pdfDocEncoding
		switch enc.Key("BaseEncoding").Name() {
		case "WinAnsiEncoding":
			base = &winAnsiEncoding
		case "MacRomanEncoding":
			base = &macRomanEncoding
		case "StandardEncoding":
			base = &standardEncoding
		default:
			if builtin != nil {
				base = builtin
			}
		}
		return newDiffEncoder(enc.Key("Differences"), base)
	case builtin != nil:
		return &byteEncoder{builtin}
	case enc.Kind() == Name && enc.Name() == "StandardEncoding":
		return &byteEncoder{&standardEncoding}
	}
	return Font{V: fv}.getEncoder()
}

// diffEncoder applies a /Differences array over a base byte table. Codes
// whose glyph name is unknown (e.g. "/g12" in Type 3 fonts) decode to the
// raw byte, which callers can detect as a garbled text layer.
type diffEncoder struct {
	table   [256]rune
	unknown [256]bool // a /Differences name without a Unicode meaning
}

func newDiffEncoder(diff Value, base *[256]rune) *diffEncoder {
	e := &diffEncoder{}
	for i := 0; i < 256; i++ {
		e.table[i] = base[i]
		if e.table[i] == noRune {
			e.table[i] = rune(i)
		}
	}
	n := -1
	for j := 0; j < diff.Len() && j < 4096; j++ {
		x := diff.Index(j)
		switch x.Kind() {
		case Integer:
			n = int(x.Int64())
		case Name:
			if n >= 0 && n < 256 {
				if r := glyphNameToRune(x.Name()); r != 0 {
					e.table[n] = r
					e.unknown[n] = false
				} else {
					e.table[n] = rune(n)
					e.unknown[n] = true
				}
			}
			n++
		}
	}
	return e
}

// glyphNameToRune resolves an Adobe glyph name, including the "uniXXXX"
// and "uXXXX[XX]" conventions.
func glyphNameToRune(name string) rune {
	if r := nameToRune[name]; r != 0 {
		return r
	}
	if i := strings.IndexByte(name, '.'); i > 0 { // "a.sc", "one.oldstyle"
		if r := nameToRune[name[:i]]; r != 0 {
			return r
		}
	}
	parseHex := func(h string) rune {
		var v rune
		for _, c := range h {
			switch {
			case c >= '0' && c <= '9':
				v = v*16 + c - '0'
			case c >= 'A' && c <= 'F':
				v = v*16 + c - 'A' + 10
			default:
				return 0
			}
		}
		return v
	}
	if strings.HasPrefix(name, "uni") && len(name) == 7 {
		return parseHex(name[3:])
	}
	if strings.HasPrefix(name, "u") && len(name) >= 5 && len(name) <= 7 {
		return parseHex(name[1:])
	}
	return 0
}

func (e *diffEncoder) Decode(raw string) string {
	r := make([]rune, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		r = append(r, e.table[raw[i]])
	}
	return string(r)
}

// parseCIDWidths reads a CIDFont /W array: "c [w1 w2 ...]" or "c1 c2 w".
func parseCIDWidths(w Value) map[int]float64 {
	if w.Kind() != Array {
		return nil
	}
	m := make(map[int]float64)
	n := w.Len()
	for i := 0; i < n && len(m) < 1<<20; {
		c := int(w.Index(i).Int64())
		next := w.Index(i + 1)
		if next.Kind() == Array {
			for j := 0; j < next.Len(); j++ {
				m[c+j] = next.Index(j).Float64()
			}
			i += 2
			continue
		}
		if i+2 >= n {
			break
		}
		c2 := int(next.Int64())
		wv := w.Index(i + 2).Float64()
		if c2-c > 1<<16 {
			c2 = c + 1<<16
		}
		for c0 := c; c0 <= c2; c0++ {
			m[c0] = wv
		}
		i += 3
	}
	return m
}

// glyph is one character code of a shown string.
type glyph struct {
	code     int
	bytes    int
	text     string
	unmapped bool // text is the raw code: the font gives no Unicode meaning
}

// eachCode splits raw into character codes and decodes each one. Simple
// fonts always use one-byte codes (whatever the ToUnicode codespace says);
// a code missing from the ToUnicode map falls back to the font encoding.
// Composite fonts are split by the CMap codespace, else two bytes.
func (fi *fontInfo) eachCode(raw string, fn func(glyph) bool) {
	if !fi.composite {
		for i := 0; i < len(raw); i++ {
			b := raw[i]
			e := fi.single[b]
			if e == nil {
				e = fi.decodeSingle(b)
				fi.single[b] = e
			}
			if !fn(glyph{int(b), 1, e.text, e.unmapped}) {
				return
			}
		}
		return
	}
	for len(raw) > 0 {
		n := 2
		if fi.cm != nil && fi.cm.hasSpace() {
			n = fi.cm.codeLen(raw)
		}
		if n > len(raw) {
			n = len(raw)
		}
		c := 0
		for i := 0; i < n; i++ {
			c = c<<8 | int(raw[i])
		}
		t, ok := "", false
		if fi.cm != nil {
			t, ok = fi.cm.lookup(raw[:n])
		}
		if !ok {
			if _, ucs := fi.enc.(*ucs2Encoder); ucs && n == 2 {
				t = utf16Decode(raw[:n])
			} else {
				t = string(noRune)
			}
		}
		if !fn(glyph{c, n, t, !ok && t == string(noRune)}) {
			return
		}
		raw = raw[n:]
	}
}

// singleCode is the decoded text of one code of a simple font, cached.
type singleCode struct {
	text     string
	unmapped bool // text is the raw code: the font gives no Unicode meaning
}

func (fi *fontInfo) decodeSingle(b byte) *singleCode {
	raw := string([]byte{b})
	if fi.cm != nil {
		if t, ok := fi.cm.lookup(raw); ok {
			return &singleCode{text: t}
		}
	}
	sc := &singleCode{text: fi.enc.Decode(raw)}
	switch e := fi.enc.(type) {
	case *diffEncoder:
		sc.unmapped = e.unknown[b]
	case *nopEncoder:
		sc.unmapped = true
	}
	return sc
}

// width returns the advance of code in text space units per point of font
// size, and whether it was estimated rather than read from the font.
func (fi *fontInfo) width(g glyph) (float64, bool) {
	if fi.composite {
		if w, ok := fi.cidW[g.code]; ok {
			return w / 1000, false
		}
		return fi.dw / 1000, fi.cidW == nil
	}
	if i := g.code - fi.first; i >= 0 && i < len(fi.widths) {
		return fi.widths[i], false
	}
	if fi.missing > 0 {
		return fi.missing, false
	}
	if g.code == ' ' || g.text == " " {
		return 0.25, true
	}
	return 0.5, true
}

func (m *cmap) hasSpace() bool {
	for _, s := range m.space {
		if len(s) > 0 {
			return true
		}
	}
	return false
}

// codeLen returns the byte length of the first code in raw according to
// the codespace ranges (1 when nothing matches, as the upstream decoder).
func (m *cmap) codeLen(raw string) int {
	for n := 1; n <= 4 && n <= len(raw); n++ {
		for _, space := range m.space[n-1] {
			if space.low <= raw[:n] && raw[:n] <= space.high {
				return n
			}
		}
	}
	return 1
}

// lookup decodes one code through the bfchar/bfrange entries of the same
// byte length, memoised (the entries are searched linearly). ok is false
// when the map has no entry for the code.
func (m *cmap) lookup(code string) (string, bool) {
	if e, ok := m.memo[code]; ok {
		return e.text, e.ok
	}
	t, ok := m.decodeOne(code)
	if m.memo == nil {
		m.memo = make(map[string]memoEntry)
	}
	if len(m.memo) < maxMemo {
		m.memo[code] = memoEntry{t, ok}
	}
	return t, ok
}

type memoEntry struct {
	text string
	ok   bool
}

func (m *cmap) decodeOne(code string) (string, bool) {
	n := len(code)
	// Patched (papertree): a map instead of a linear scan per code (a CMap
	// may list 100,000 codes).
	if m.chars == nil {
		m.chars = make(map[string]string, len(m.bfchar))
		for _, bf := range m.bfchar {
			if _, dup := m.chars[bf.orig]; !dup {
				m.chars[bf.orig] = bf.repl
			}
		}
	}
	if repl, ok := m.chars[code]; ok {
		return utf16Decode(repl), true
	}
	for _, br := range m.bfrange {
		if len(br.lo) != n || len(br.hi) != n || code < br.lo || code > br.hi {
			continue
		}
		switch br.dst.Kind() {
		case String:
			s := br.dst.RawString()
			if len(s) == 0 {
				return "", false
			}
			b := []byte(s)
			b[len(b)-1] += code[n-1] - br.lo[n-1]
			return utf16Decode(string(b)), true
		case Array:
			v := br.dst.Index(int(code[n-1]) - int(br.lo[n-1]))
			if v.Kind() == String {
				return utf16Decode(v.RawString()), true
			}
		}
		return "", false
	}
	return "", false
}

// Content returns the page's content.
func (p Page) Content() Content {
	// Handle in case the content page is empty
	if p.V.IsNull() || p.V.Key("Contents").Kind() == Null {
		return Content{}
	}
	var text []Text
	c := &contentState{r: p.V.r, emit: func(t Text) { text = append(text, t) }}
	g := gstate{Th: 1, CTM: ident, Tm: ident, Tlm: ident}
	c.run(p.V.Key("Contents"), p.Resources(), g, 0)
	return Content{text, c.rect}
}

// WalkText interprets the page's content and calls fn for every glyph in
// content-stream order, without collecting them (Content does the same
// but keeps every glyph and rectangle in memory). Added by the papertree
// patch.
func (p Page) WalkText(fn func(Text)) {
	if p.V.IsNull() || p.V.Key("Contents").Kind() == Null {
		return
	}
	c := &contentState{r: p.V.r, emit: fn, noRects: true}
	g := gstate{Th: 1, CTM: ident, Tm: ident, Tlm: ident}
	c.run(p.V.Key("Contents"), p.Resources(), g, 0)
}

type contentState struct {
	r       *Reader
	emit    func(Text)
	glyphs  int
	rect    []Rect
	noRects bool
	forms   []objptr
}

func (c *contentState) run(strm Value, res Value, g gstate, depth int) {
	var fi *fontInfo = &fontInfo{enc: &nopEncoder{}, noWidths: true}
	var gstack []gstate
	var fstack []*fontInfo

	showText := func(s string) {
		fi.eachCode(s, func(gl glyph) bool {
			if c.glyphs >= maxGlyphsPerPage || !c.r.tick() {
				return false
			}
			c.glyphs++
			w0, _ := fi.width(gl)
			// M = Tm x CTM; Trm = [Tfs*Th 0 0; 0 Tfs 0; 0 Trise 1] x M,
			// expanded by hand (this runs for every glyph of a paper).
			M := g.Tm.mul(g.CTM)
			a, b := g.Tfs*g.Th*M[0][0], g.Tfs*g.Th*M[0][1]
			cc, d := g.Tfs*M[1][0], g.Tfs*M[1][1]
			x := g.Trise*M[1][0] + M[2][0]
			y := g.Trise*M[1][1] + M[2][1]
			// The glyph's advance (without Tc/Tw) in device space.
			w := math.Abs(w0) * math.Hypot(a, b)
			rotated := a <= 0 || math.Abs(b) > 0.1*math.Abs(a)
			dx, dy := 1.0, 0.0
			if n := math.Hypot(a, b); n > 0 {
				dx, dy = a/n, b/n
			}
			c.emit(Text{
				Font: fi.name, FontSize: math.Hypot(cc, d),
				X: x, Y: y, W: w, S: gl.text,
				FontFlags: fi.flags, FontWeight: fi.weight, ItalicAngle: fi.italic,
				Rotated: rotated, Invisible: g.Tmode == 3 || g.Tmode == 7,
				Unmapped: gl.unmapped, DirX: dx, DirY: dy,
			})
			tx := w0*g.Tfs + g.Tc
			if gl.bytes == 1 && gl.code == 32 {
				tx += g.Tw
			}
			tx *= g.Th
			// Tm = [1 0 0; 0 1 0; tx 0 1] x Tm
			g.Tm[2][0] += tx * g.Tm[0][0]
			g.Tm[2][1] += tx * g.Tm[0][1]
			return true
		})
	}

	Interpret(strm, func(stk *Stack, op string) {
		args := popArgs(stk)
		switch op {
		default:
			return

		case "cm": // update g.CTM
			if len(args) != 6 {
				return
			}
			var m matrix
			for i := 0; i < 6; i++ {
				m[i/2][i%2] = args[i].Float64()
			}
			m[2][2] = 1
			g.CTM = m.mul(g.CTM)

		case "re": // append rectangle to path
			if len(args) != 4 {
				return
			}
			x, y, w, h := args[0].Float64(), args[1].Float64(), args[2].Float64(), args[3].Float64()
			if !c.noRects && len(c.rect) < maxGlyphsPerPage {
				c.rect = append(c.rect, Rect{Point{x, y}, Point{x + w, y + h}})
			}

		case "q": // save graphics state
			if len(gstack) < 4096 {
				gstack = append(gstack, g)
				fstack = append(fstack, fi)
			}

		case "Q": // restore graphics state
			if n := len(gstack) - 1; n >= 0 {
				g = gstack[n]
				fi = fstack[n]
				gstack = gstack[:n]
				fstack = fstack[:n]
			}

		case "BT": // begin text (reset text matrix and line matrix)
			g.Tm = ident
			g.Tlm = g.Tm

		case "T*": // move to start of next line
			x := matrix{{1, 0, 0}, {0, 1, 0}, {0, -g.Tl, 1}}
			g.Tlm = x.mul(g.Tlm)
			g.Tm = g.Tlm

		case "Tc": // set character spacing
			if len(args) == 1 {
				g.Tc = args[0].Float64()
			}

		case "TD", "Td": // move text position (and set leading)
			if len(args) != 2 {
				return
			}
			tx := args[0].Float64()
			ty := args[1].Float64()
			if op == "TD" {
				g.Tl = -ty
			}
			x := matrix{{1, 0, 0}, {0, 1, 0}, {tx, ty, 1}}
			g.Tlm = x.mul(g.Tlm)
			g.Tm = g.Tlm

		case "Tf": // set text font and size
			if len(args) != 2 {
				return
			}
			fi = c.r.font(res, args[0].Name())
			g.Tfs = args[1].Float64()

		case "\"", "'", "Tj":
			if op == "\"" {
				if len(args) != 3 {
					return
				}
				g.Tw = args[0].Float64()
				g.Tc = args[1].Float64()
				args = args[2:]
			}
			if len(args) != 1 {
				return
			}
			if op != "Tj" {
				x := matrix{{1, 0, 0}, {0, 1, 0}, {0, -g.Tl, 1}}
				g.Tlm = x.mul(g.Tlm)
				g.Tm = g.Tlm
			}
			showText(args[0].RawString())

		case "TJ": // show text, allowing individual glyph positioning
			if len(args) != 1 {
				return
			}
			v := args[0]
			for i := 0; i < v.Len(); i++ {
				x := v.Index(i)
				if x.Kind() == String {
					showText(x.RawString())
				} else {
					tx := -x.Float64() / 1000 * g.Tfs * g.Th
					g.Tm = matrix{{1, 0, 0}, {0, 1, 0}, {tx, 0, 1}}.mul(g.Tm)
				}
			}
			// Upstream called showText("\n") here, which decoded "\n"
			// through the font encoding and emitted one junk glyph per TJ.

		case "TL": // set text leading
			if len(args) == 1 {
				g.Tl = args[0].Float64()
			}

		case "Tm": // set text matrix and line matrix
			if len(args) != 6 {
				return
			}
			var m matrix
			for i := 0; i < 6; i++ {
				m[i/2][i%2] = args[i].Float64()
			}
			m[2][2] = 1
			g.Tm = m
			g.Tlm = m

		case "Tr": // set text rendering mode
			if len(args) == 1 {
				g.Tmode = int(args[0].Int64())
			}

		case "Ts": // set text rise
			if len(args) == 1 {
				g.Trise = args[0].Float64()
			}

		case "Tw": // set word spacing
			if len(args) == 1 {
				g.Tw = args[0].Float64()
			}

		case "Tz": // set horizontal text scaling
			if len(args) == 1 {
				g.Th = args[0].Float64() / 100
			}

		case "Do": // paint an XObject: follow Form XObjects
			if len(args) != 1 || depth >= maxFormDepth {
				return
			}
			xo := res.Key("XObject").Key(args[0].Name())
			if xo.Kind() != Stream || xo.Key("Subtype").Name() != "Form" {
				return
			}
			for _, p := range c.forms {
				if p == xo.ptr {
					return // reference cycle
				}
			}
			fg := g
			if m := xo.Key("Matrix"); m.Len() == 6 {
				var fm matrix
				for i := 0; i < 6; i++ {
					fm[i/2][i%2] = m.Index(i).Float64()
				}
				fm[2][2] = 1
				fg.CTM = fm.mul(g.CTM)
			}
			fres := xo.Key("Resources")
			if fres.Kind() != Dict {
				fres = res
			}
			c.forms = append(c.forms, xo.ptr)
			c.run(xo, fres, fg, depth+1)
			c.forms = c.forms[:len(c.forms)-1]
		}
	})
}
