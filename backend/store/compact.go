package store

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

// Compact node cells (migration 0009).
//
// Two node columns held bytes that say nothing new:
//   - nodes.summary: an extractive summary is the segment's path, a few of
//     the segment's own sentences and a short "(Continues: ...)" tail, so
//     most of it is a copy of nodes.text in the same row (1.0 of the 4.9 MB
//     of node rows of the 44 development PDFs).
//   - nodes.boxes: JSON with the float noise of the PDF arithmetic
//     ("x1":496.15999999999997), about 70 bytes per box.
//
// A summary whose copy-encoding is shorter is stored as a BLOB: references
// to byte ranges of the row's text plus the literal bytes in between (the
// path, the tail). Decoding gives back exactly the same string. An LLM
// summary that shares little with its segment stays TEXT.
//
// Boxes are stored as a BLOB of varints in hundredths of a point (far
// below what a highlight on a page can show). Boxes that cannot be written
// that way (a coordinate that is not finite or beyond 1e13 pt) stay JSON.
//
// Both columns keep accepting their old TEXT form, so libraries written
// before read as before; the reader tells the forms apart by the cell's
// type (TEXT or BLOB).

const (
	summaryCopyTag = 1 // first byte of a copy-encoded summary
	boxesBinTag    = 1 // first byte of binary boxes
	// summaryMinCopy is the shortest run copied from the text: a reference
	// costs 2-4 bytes, and short runs would be found only by a slower search.
	summaryMinCopy = 12
	// summaryMaxScan bounds the occurrences of a run tried per position,
	// so text made of one repeated phrase cannot make saving slow.
	summaryMaxScan = 16
)

// encodeSummary returns the copy-encoding of summary against text, or nil
// when it would not be at least a quarter smaller (then the summary is
// stored as plain TEXT).
func encodeSummary(text, summary string) []byte {
	if len(summary) < 2*summaryMinCopy || len(text) < summaryMinCopy {
		return nil
	}
	out := make([]byte, 1, len(summary)/2)
	out[0] = summaryCopyTag
	lit := 0 // start of the pending literal run
	flushLit := func(end int) {
		if end > lit {
			out = binary.AppendUvarint(out, uint64(end-lit)<<1)
			out = append(out, summary[lit:end]...)
		}
	}
	for i := 0; i+summaryMinCopy <= len(summary); {
		bestOff, bestLen := -1, 0
		probe := summary[i : i+summaryMinCopy]
		from := 0
		for tries := 0; tries < summaryMaxScan && from < len(text); tries++ {
			k := strings.Index(text[from:], probe)
			if k < 0 {
				break
			}
			off := from + k
			n := summaryMinCopy
			for off+n < len(text) && i+n < len(summary) && text[off+n] == summary[i+n] {
				n++
			}
			if n > bestLen {
				bestOff, bestLen = off, n
			}
			if i+n == len(summary) {
				break
			}
			from = off + 1
		}
		if bestLen == 0 {
			i++
			continue
		}
		flushLit(i)
		out = binary.AppendUvarint(out, uint64(bestLen)<<1|1)
		out = binary.AppendUvarint(out, uint64(bestOff))
		i += bestLen
		lit = i
	}
	flushLit(len(summary))
	if len(out) > len(summary)*3/4 {
		return nil
	}
	return out
}

// decodeSummary rebuilds a copy-encoded summary; ok is false for a cell
// that does not decode against text (a damaged row).
func decodeSummary(text string, b []byte) (string, bool) {
	if len(b) == 0 || b[0] != summaryCopyTag {
		return "", false
	}
	b = b[1:]
	var sb strings.Builder
	sb.Grow(2 * len(b))
	for len(b) > 0 {
		h, k := binary.Uvarint(b)
		if k <= 0 {
			return "", false
		}
		b = b[k:]
		n := h >> 1
		if h&1 == 0 {
			if n > uint64(len(b)) {
				return "", false
			}
			sb.Write(b[:n])
			b = b[n:]
			continue
		}
		off, k := binary.Uvarint(b)
		if k <= 0 || off > uint64(len(text)) || n > uint64(len(text))-off {
			return "", false
		}
		b = b[k:]
		sb.WriteString(text[off : off+n])
	}
	return sb.String(), true
}

// summaryCell is what insertNodes stores for a node's summary.
func summaryCell(text, summary string) any {
	if b := encodeSummary(text, summary); b != nil {
		return b
	}
	return summary
}

// readSummary turns a stored summary cell back into the summary.
func readSummary(text string, cell any) string {
	switch v := cell.(type) {
	case string:
		return v
	case []byte:
		s, ok := decodeSummary(text, v)
		if !ok {
			return "" // a damaged cell loses the summary, not the node
		}
		return s
	}
	return ""
}

// boxScale: coordinates are kept in hundredths of a point.
const boxScale = 100

// maxBoxCoord keeps scaled coordinates exact in float64 and int64.
const maxBoxCoord = 1e13

// encodeBoxes writes boxes as varints (page, then x0, y0 in hundredths of
// a point and the width and height in the same unit); ok is false when a
// coordinate cannot be written that way.
func encodeBoxes(boxes []papertree.Box) ([]byte, bool) {
	out := make([]byte, 1, 1+len(boxes)*14)
	out[0] = boxesBinTag
	out = binary.AppendUvarint(out, uint64(len(boxes)))
	for _, b := range boxes {
		var c [4]int64
		for i, v := range [4]float64{b.X0, b.Y0, b.X1, b.Y1} {
			if math.IsNaN(v) || math.Abs(v) > maxBoxCoord {
				return nil, false
			}
			c[i] = int64(math.Round(v * boxScale))
		}
		out = binary.AppendVarint(out, int64(b.Page))
		out = binary.AppendVarint(out, c[0])
		out = binary.AppendVarint(out, c[1])
		out = binary.AppendVarint(out, c[2]-c[0])
		out = binary.AppendVarint(out, c[3]-c[1])
	}
	return out, true
}

// decodeBoxes reads encodeBoxes' format; ok is false for a damaged cell.
func decodeBoxes(b []byte) ([]papertree.Box, bool) {
	if len(b) == 0 || b[0] != boxesBinTag {
		return nil, false
	}
	b = b[1:]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) { // every box takes at least 5 bytes
		return nil, false
	}
	b = b[k:]
	out := make([]papertree.Box, 0, n)
	for i := uint64(0); i < n; i++ {
		var v [5]int64
		for j := range v {
			x, k := binary.Varint(b)
			if k <= 0 {
				return nil, false
			}
			v[j] = x
			b = b[k:]
		}
		if v[0] < math.MinInt32 || v[0] > math.MaxInt32 {
			return nil, false
		}
		out = append(out, papertree.Box{Page: int(v[0]),
			X0: float64(v[1]) / boxScale, Y0: float64(v[2]) / boxScale,
			X1: float64(v[1]+v[3]) / boxScale, Y1: float64(v[2]+v[4]) / boxScale})
	}
	if len(b) != 0 {
		return nil, false
	}
	return out, true
}

// boxesCell is what insertNodes stores for a node's boxes: the binary form,
// or JSON for boxes it cannot hold (which fails, as before, on NaN or
// infinity).
func boxesCell(boxes []papertree.Box) (any, error) {
	if len(boxes) == 0 {
		return "[]", nil
	}
	if b, ok := encodeBoxes(boxes); ok {
		return b, nil
	}
	j, err := json.Marshal(boxes)
	if err != nil {
		return nil, err
	}
	return string(j), nil
}

// readBoxes turns a stored boxes cell back into boxes (nil for none or a
// damaged cell: boxes only place highlights, so the node stays usable).
func readBoxes(cell any) []papertree.Box {
	switch v := cell.(type) {
	case string:
		if v == "" || v == "[]" {
			return nil
		}
		var out []papertree.Box
		if err := json.Unmarshal([]byte(v), &out); err != nil {
			return nil
		}
		return out
	case []byte:
		out, ok := decodeBoxes(v)
		if !ok || len(out) == 0 {
			return nil
		}
		return out
	}
	return nil
}
