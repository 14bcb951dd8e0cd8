// Added by the papertree patch: the built-in encoding of embedded Type 1
// fonts and Adobe StandardEncoding. TeX's math and Computer Modern fonts
// carry no /Encoding in the PDF; their codes only make sense through the
// encoding vector in the font program's cleartext part ("dup 58 /period
// put"), e.g. CMMI10 draws "." with code 58, which raw bytes read as ":".

package pdf

import (
	"io"
	"strconv"
	"strings"
)

// standardEncoding is Adobe StandardEncoding (PDF 32000-1, Annex D.2).
var standardEncoding = func() [256]rune {
	var t [256]rune
	for i := 0; i < 256; i++ {
		t[i] = noRune
	}
	for i := 0x20; i < 0x7f; i++ {
		t[i] = rune(i)
	}
	t[0x27] = 0x2019
	t[0x60] = 0x2018
	hi := map[int]rune{
		0xa1: 0xa1, 0xa2: 0xa2, 0xa3: 0xa3, 0xa4: 0x2044, 0xa5: 0xa5, 0xa6: 0x192, 0xa7: 0xa7,
		0xa8: 0xa4, 0xa9: 0x27, 0xaa: 0x201c, 0xab: 0xab, 0xac: 0x2039, 0xad: 0x203a,
		0xae: 0xfb01, 0xaf: 0xfb02, 0xb1: 0x2013, 0xb2: 0x2020, 0xb3: 0x2021, 0xb4: 0xb7,
		0xb6: 0xb6, 0xb7: 0x2022, 0xb8: 0x201a, 0xb9: 0x201e, 0xba: 0x201d, 0xbb: 0xbb,
		0xbc: 0x2026, 0xbd: 0x2030, 0xbf: 0xbf, 0xc1: 0x60, 0xc2: 0xb4, 0xc3: 0x2c6,
		0xc4: 0x2dc, 0xc5: 0xaf, 0xc6: 0x2d8, 0xc7: 0x2d9, 0xc8: 0xa8, 0xca: 0x2da,
		0xcb: 0xb8, 0xcd: 0x2dd, 0xce: 0x2db, 0xcf: 0x2c7, 0xd0: 0x2014, 0xe1: 0xc6,
		0xe3: 0xaa, 0xe8: 0x141, 0xe9: 0xd8, 0xea: 0x152, 0xeb: 0xba, 0xf1: 0xe6,
		0xf5: 0x131, 0xf8: 0x142, 0xf9: 0xf8, 0xfa: 0x153, 0xfb: 0xdf,
	}
	for k, v := range hi {
		t[k] = v
	}
	return t
}()

// builtinEncoding returns the encoding vector of the embedded Type 1 font
// program (FontFile) described by fd, or nil when there is none or it
// cannot be read. Codes the vector leaves undefined map to the raw byte.
func builtinEncoding(fd Value) (table *[256]rune) {
	if ff3 := fd.Key("FontFile3"); ff3.Kind() == Stream && ff3.Key("Subtype").Name() == "Type1C" {
		return cffBuiltinEncoding(ff3)
	}
	ff := fd.Key("FontFile")
	if ff.Kind() != Stream {
		return nil
	}
	defer func() {
		if recover() != nil {
			table = nil
		}
	}()
	n := ff.Key("Length1").Int64()
	if n <= 0 || n > 1<<20 {
		n = 1 << 16
	}
	rc := ff.Reader()
	data, _ := io.ReadAll(io.LimitReader(rc, n))
	rc.Close()
	s := string(data)
	if i := strings.Index(s, "eexec"); i >= 0 {
		s = s[:i]
	}
	i := strings.Index(s, "/Encoding")
	if i < 0 {
		return nil
	}
	s = s[i+len("/Encoding"):]
	if strings.HasPrefix(strings.TrimSpace(s), "StandardEncoding") {
		t := standardEncoding
		return &t
	}
	var t [256]rune
	for i := range t {
		t[i] = rune(i)
	}
	found := false
	f := strings.Fields(s)
	for i := 0; i+3 < len(f); i++ {
		if f[i] != "dup" || f[i+3] != "put" || !strings.HasPrefix(f[i+2], "/") {
			if f[i] == "readonly" || f[i] == "def" && found {
				break
			}
			continue
		}
		code, err := strconv.Atoi(f[i+1])
		if err != nil || code < 0 || code > 255 {
			continue
		}
		if r := glyphNameToRune(f[i+2][1:]); r != 0 {
			t[code] = r
			found = true
		}
		i += 3
	}
	if !found {
		return nil
	}
	return &t
}

// std14Metrics returns widths (text space units per point, indexed by
// code-32 for codes 32..126) for a simple font that names a standard font
// without /Widths, or nil. Common aliases (Arial, TimesNewRoman, ",Bold")
// are folded onto the standard names.
func std14Metrics(base string) []float64 {
	n := strings.ToLower(strings.NewReplacer(" ", "", "-", "", ",", "", "PS", "", "MT", "").Replace(base))
	bold := strings.Contains(n, "bold")
	italic := strings.Contains(n, "italic") || strings.Contains(n, "oblique")
	var key string
	switch {
	case strings.HasPrefix(n, "courier"):
		w := make([]float64, 95)
		for i := range w {
			w[i] = 0.6
		}
		return w
	case strings.HasPrefix(n, "times"):
		key = "Times-Roman"
		switch {
		case bold && italic:
			key = "Times-BoldItalic"
		case bold:
			key = "Times-Bold"
		case italic:
			key = "Times-Italic"
		}
	case strings.HasPrefix(n, "helvetica"), strings.HasPrefix(n, "arial"):
		key = "Helvetica"
		switch {
		case bold && italic:
			key = "Helvetica-BoldOblique"
		case bold:
			key = "Helvetica-Bold"
		case italic:
			key = "Helvetica-Oblique"
		}
	default:
		return nil
	}
	t := std14Widths[key]
	w := make([]float64, 95)
	for i, v := range t {
		w[i] = float64(v) / 1000
	}
	return w
}
