package pdf

import "testing"

// TestCFFEncoding builds a minimal CFF font: three glyphs (.notdef, fi,
// multiply) with a format 0 charset and a format 0 encoding that puts
// them at codes 0x0C and 0xD7, plus a supplement mapping 0x2D to "minus".
func TestCFFEncoding(t *testing.T) {
	header := []byte{1, 0, 4, 1}
	nameIdx := []byte{0, 1, 1, 1, 2, 'F'}
	emptyIdx := []byte{0, 0}
	// Layout: header | name | top | strings | gsubrs | charstrings | charset | encoding
	// The Top DICT has fixed-size operands (28 = int16), so its length is
	// known before the offsets are.
	topLen := 3*3 + 3 // three int16 operands + three one-byte operators
	topIdx := func(cs, charset, enc int) []byte {
		d := []byte{28, byte(charset >> 8), byte(charset), 15, 28, byte(enc >> 8), byte(enc), 16, 28, byte(cs >> 8), byte(cs), 17}
		return append([]byte{0, 1, 1, 1, byte(1 + len(d))}, d...)
	}
	charstrings := []byte{0, 3, 1, 1, 2, 3, 4, 14, 14, 14} // three "endchar" glyphs
	charset := []byte{0, 0, 109, 0, 168}                   // format 0: gid1 = SID 109 (fi), gid2 = SID 168 (multiply)
	encoding := []byte{0x80, 2, 0x0C, 0xD7, 1, 0x2D, 0, 166}
	csOff := len(header) + len(nameIdx) + 5 + topLen + len(emptyIdx)*2
	charsetOff := csOff + len(charstrings)
	encOff := charsetOff + len(charset)
	var data []byte
	for _, part := range [][]byte{header, nameIdx, topIdx(csOff, charsetOff, encOff), emptyIdx, emptyIdx, charstrings, charset, encoding} {
		data = append(data, part...)
	}
	tab := cffEncoding(data)
	if tab == nil {
		t.Fatal("no encoding parsed")
	}
	for code, want := range map[int]rune{0x0C: '\uFB01', 0xD7: '×', 0x2D: '−', 'A': 'A'} {
		if got := tab[code]; got != want {
			t.Errorf("code %#x = %q, want %q", code, got, want)
		}
	}
	if cffEncoding(data[:20]) != nil {
		t.Error("truncated CFF should give no encoding")
	}
}
