// Added by the papertree patch: the built-in encoding of embedded CFF
// (Type1C, /FontFile3) fonts. Distiller-era papers embed Type1C fonts with
// no /Encoding; their codes for ligatures, dashes and math symbols (e.g.
// 0x0C "fi" in a TeX font) only make sense through the encoding and charset
// inside the CFF data (Adobe Technical Note #5176).

package pdf

import (
	"io"
	"strings"
)

// cffStandardStrings are the standard string IDs 0..228 (the ISOAdobe
// charset); 229..390 are Expert-set names, not needed for text.
var cffStandardStrings = strings.Fields(`.notdef space exclam quotedbl numbersign dollar percent ampersand
quoteright parenleft parenright asterisk plus comma hyphen period slash zero one two three four five six
seven eight nine colon semicolon less equal greater question at A B C D E F G H I J K L M N O P Q R S T U
V W X Y Z bracketleft backslash bracketright asciicircum underscore quoteleft a b c d e f g h i j k l m n o
p q r s t u v w x y z braceleft bar braceright asciitilde exclamdown cent sterling fraction yen florin
section currency quotesingle quotedblleft guillemotleft guilsinglleft guilsinglright fi fl endash dagger
daggerdbl periodcentered paragraph bullet quotesinglbase quotedblbase quotedblright guillemotright
ellipsis perthousand questiondown grave acute circumflex tilde macron breve dotaccent dieresis ring
cedilla hungarumlaut ogonek caron emdash AE ordfeminine Lslash Oslash OE ordmasculine ae dotlessi lslash
oslash oe germandbls onesuperior logicalnot mu trademark Eth onehalf plusminus Thorn onequarter divide
brokenbar degree thorn threequarters twosuperior registered minus eth multiply threesuperior copyright
Aacute Acircumflex Adieresis Agrave Aring Atilde Ccedilla Eacute Ecircumflex Edieresis Egrave Iacute
Icircumflex Idieresis Igrave Ntilde Oacute Ocircumflex Odieresis Ograve Otilde Scaron Uacute Ucircumflex
Udieresis Ugrave Yacute Ydieresis Zcaron aacute acircumflex adieresis agrave aring atilde ccedilla eacute
ecircumflex edieresis egrave iacute icircumflex idieresis igrave ntilde oacute ocircumflex odieresis
ograve otilde scaron uacute ucircumflex udieresis ugrave yacute ydieresis zcaron`)

// cffBuiltinEncoding reads the encoding of a bare CFF font program and
// returns code -> rune (raw byte where undefined), or nil for CID-keyed
// fonts, Expert encodings or damaged data.
func cffBuiltinEncoding(ff Value) (table *[256]rune) {
	defer func() {
		if recover() != nil {
			table = nil
		}
	}()
	rc := ff.Reader()
	data, _ := io.ReadAll(io.LimitReader(rc, 8<<20))
	rc.Close()
	return cffEncoding(data)
}

// cffEncoding is cffBuiltinEncoding on the raw CFF bytes.
func cffEncoding(data []byte) (table *[256]rune) {
	defer func() {
		if recover() != nil {
			table = nil
		}
	}()
	c := &cffReader{data: data}
	if len(data) < 4 {
		return nil
	}
	c.pos = int(data[2])
	c.index() // Name INDEX
	top := c.index()
	strs := c.index()
	if len(top) == 0 {
		return nil
	}
	dict := parseCFFDict(top[0])
	if _, cid := dict[0x0c1e]; cid { // ROS: CID-keyed
		return nil
	}
	csOff := dictInt(dict, 17, 0)
	if csOff <= 0 || csOff >= len(data) {
		return nil
	}
	c.pos = csOff
	nGlyphs := c.card16()
	encOff := dictInt(dict, 16, 0)
	if encOff == 0 {
		t := standardEncoding
		return &t
	}
	if encOff == 1 || encOff >= len(data) {
		return nil
	}
	// gid -> SID from the charset.
	sids := make([]int, nGlyphs)
	switch csetOff := dictInt(dict, 15, 0); {
	case csetOff == 0:
		for i := range sids {
			sids[i] = i
		}
	case csetOff < 3 || csetOff >= len(data):
		return nil
	default:
		c.pos = csetOff
		format := c.card8()
		for gid := 1; gid < nGlyphs; {
			switch format {
			case 0:
				sids[gid] = c.card16()
				gid++
			case 1, 2:
				first := c.card16()
				var nLeft int
				if format == 1 {
					nLeft = c.card8()
				} else {
					nLeft = c.card16()
				}
				for k := 0; k <= nLeft && gid < nGlyphs; k++ {
					sids[gid] = first + k
					gid++
				}
			default:
				return nil
			}
		}
	}
	name := func(sid int) string {
		switch {
		case sid < len(cffStandardStrings):
			return cffStandardStrings[sid]
		case sid >= 391 && sid-391 < len(strs):
			return string(strs[sid-391])
		}
		return ""
	}
	var t [256]rune
	for i := range t {
		t[i] = rune(i)
	}
	set := func(code, sid int) {
		if code >= 0 && code < 256 {
			if r := glyphNameToRune(name(sid)); r != 0 {
				t[code] = r
			}
		}
	}
	c.pos = encOff
	f := c.card8()
	switch f & 0x7f {
	case 0:
		n := c.card8()
		for i := 1; i <= n; i++ {
			code := c.card8()
			if i < nGlyphs {
				set(code, sids[i])
			}
		}
	case 1:
		n := c.card8()
		gid := 1
		for i := 0; i < n; i++ {
			first, nLeft := c.card8(), c.card8()
			for k := 0; k <= nLeft; k++ {
				if gid < nGlyphs {
					set(first+k, sids[gid])
				}
				gid++
			}
		}
	default:
		return nil
	}
	if f&0x80 != 0 {
		n := c.card8()
		for i := 0; i < n; i++ {
			code := c.card8()
			set(code, c.card16())
		}
	}
	return &t
}

type cffReader struct {
	data []byte
	pos  int
}

func (c *cffReader) card8() int {
	if c.pos >= len(c.data) {
		panic("cff: short data")
	}
	v := int(c.data[c.pos])
	c.pos++
	return v
}

func (c *cffReader) card16() int { return c.card8()<<8 | c.card8() }

func (c *cffReader) offset(size int) int {
	v := 0
	for i := 0; i < size; i++ {
		v = v<<8 | c.card8()
	}
	return v
}

// index reads a CFF INDEX and returns its entries.
func (c *cffReader) index() [][]byte {
	count := c.card16()
	if count == 0 {
		return nil
	}
	offSize := c.card8()
	if offSize < 1 || offSize > 4 || count > 1<<16 {
		panic("cff: bad INDEX")
	}
	offs := make([]int, count+1)
	for i := range offs {
		offs[i] = c.offset(offSize)
	}
	base := c.pos - 1
	out := make([][]byte, count)
	for i := 0; i < count; i++ {
		a, b := base+offs[i], base+offs[i+1]
		if a < c.pos || b < a || b > len(c.data) {
			panic("cff: bad INDEX offsets")
		}
		out[i] = c.data[a:b]
	}
	c.pos = base + offs[count]
	return out
}

// parseCFFDict decodes a Top DICT into operator -> operands (two-byte
// operators are 0x0c00|b1).
func parseCFFDict(d []byte) map[int][]float64 {
	out := make(map[int][]float64)
	var ops []float64
	for i := 0; i < len(d); {
		b0 := int(d[i])
		switch {
		case b0 <= 21:
			op := b0
			i++
			if b0 == 12 && i < len(d) {
				op = 0x0c00 | int(d[i])
				i++
			}
			out[op] = ops
			ops = nil
		case b0 == 28 && i+2 < len(d):
			ops = append(ops, float64(int16(uint16(d[i+1])<<8|uint16(d[i+2]))))
			i += 3
		case b0 == 29 && i+4 < len(d):
			ops = append(ops, float64(int32(uint32(d[i+1])<<24|uint32(d[i+2])<<16|uint32(d[i+3])<<8|uint32(d[i+4]))))
			i += 5
		case b0 == 30: // real: skip nibbles up to the 0xf terminator
			i++
			for i < len(d) {
				b := d[i]
				i++
				if b&0x0f == 0x0f || b>>4 == 0x0f {
					break
				}
			}
			ops = append(ops, 0)
		case b0 >= 32 && b0 <= 246:
			ops = append(ops, float64(b0-139))
			i++
		case b0 >= 247 && b0 <= 250 && i+1 < len(d):
			ops = append(ops, float64((b0-247)*256+int(d[i+1])+108))
			i += 2
		case b0 >= 251 && b0 <= 254 && i+1 < len(d):
			ops = append(ops, float64(-(b0-251)*256-int(d[i+1])-108))
			i += 2
		default:
			i++
		}
	}
	return out
}

func dictInt(d map[int][]float64, op, def int) int {
	if v, ok := d[op]; ok && len(v) > 0 {
		return int(v[len(v)-1])
	}
	return def
}
