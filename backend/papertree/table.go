package papertree

import "strings"

// Tables are stored as leaves with RoleTable whose Text is the table in a
// plain text form that the full-text index, the summaries and every
// renderer can read (Table.Format, ParseTable):
//
//	Table 1: Summary statistics for the datasets.   <- the caption, if any: a line with no cell separator
//	| Data | c | N                                  <- the header row, if any: marked by a leading "| "
//	MR | 2 | 10662                                  <- one row per line, cells split by " | "
//
// A literal "|" inside a cell or the caption is written "\|". No migration
// is needed and readers that know nothing of tables see readable text.

// Table is a table leaf's content.
type Table struct {
	Caption string
	Header  []string // nil: no header row
	Rows    [][]string
}

// Format writes t in the text form of a table leaf.
func (t Table) Format() string {
	var ls []string
	if c := strings.Join(strings.Fields(t.Caption), " "); c != "" {
		ls = append(ls, strings.ReplaceAll(c, "|", `\|`))
	}
	if len(t.Header) > 0 {
		ls = append(ls, "| "+joinCells(t.Header))
	}
	for _, r := range t.Rows {
		ls = append(ls, joinCells(r))
	}
	return strings.Join(ls, "\n")
}

// FormatTable writes a header (may be nil) and rows in the text form of a
// table leaf (a table without caption).
func FormatTable(header []string, rows [][]string) string {
	return Table{Header: header, Rows: rows}.Format()
}

func joinCells(cells []string) string {
	out := make([]string, len(cells))
	for i, c := range cells {
		c = strings.Join(strings.Fields(c), " ")
		out[i] = strings.ReplaceAll(c, "|", `\|`)
	}
	return strings.Join(out, " | ")
}

// ParseTable reads the text form back. Lines are split on unescaped "|";
// empty cells stay.
func ParseTable(text string) Table {
	var t Table
	for i, ln := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		cells := splitCells(ln)
		switch {
		case i == 0 && len(cells) == 1:
			t.Caption = cells[0]
		case len(t.Rows) == 0 && t.Header == nil && strings.HasPrefix(ln, "| "):
			t.Header = splitCells(ln[2:])
		default:
			t.Rows = append(t.Rows, cells)
		}
	}
	return t
}

func splitCells(ln string) []string {
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(ln); i++ {
		switch {
		case ln[i] == '\\' && i+1 < len(ln) && ln[i+1] == '|':
			cur.WriteByte('|')
			i++
		case ln[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(ln[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

// TableRowSentences reads each row of a table leaf as a sentence that
// carries its headers: "ViT-Large: Layers 24, Hidden size 1024, Params
// 307M" (the first cell labels the row; a cell under no header or an empty
// header is said alone; empty cells and lone dashes are left out). A table
// without a header gives its rows' cells joined by commas.
func TableRowSentences(text string) []string {
	t := ParseTable(text)
	out := make([]string, 0, len(t.Rows))
	for _, r := range t.Rows {
		if len(r) == 0 {
			continue
		}
		label := r[0]
		var parts []string
		for j := 1; j < len(r); j++ {
			if strings.Trim(r[j], "-−–— ") == "" {
				continue // empty, or a dash for "no result"
			}
			h := ""
			if j < len(t.Header) {
				h = t.Header[j]
			}
			if h == "" {
				parts = append(parts, r[j])
			} else {
				parts = append(parts, h+" "+r[j])
			}
		}
		s := strings.Join(parts, ", ")
		switch {
		case label != "" && s != "":
			s = label + ": " + s
		case label != "":
			s = label
		}
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// IsTableText reports whether text is in the text form of a table leaf:
// two lines or more, every line but an optional first (the caption) split
// into the same number (2 or more) of cells. Prose never is, so the
// sentence splitter can read a table by rows wherever a leaf's text is
// split (retrieval's sentence signals, summaries, answers) without the
// leaf's role.
func IsTableText(text string) bool {
	ls := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(ls) < 2 {
		return false
	}
	n := -1
	for i, ln := range ls {
		if ln == "" {
			return false
		}
		c := cellCount(ln)
		if i == 0 && c == 1 {
			continue // the caption
		}
		if c < 2 || n >= 0 && c != n {
			return false
		}
		n = c
	}
	return n >= 2
}

// tableSentences is a table's caption, split as prose, and its rows read
// with their headers (TableRowSentences).
func tableSentences(text string) []string {
	var out []string
	if c := ParseTable(text).Caption; c != "" {
		out = splitProse(c)
	}
	return append(out, TableRowSentences(text)...)
}

// cellCount counts the cells of one line of the text form: one more than
// its separators, a "|" with a space (or the line's end) on both sides;
// the header's leading "| " is its mark, not a separator.
func cellCount(ln string) int {
	ln = strings.TrimPrefix(ln, "| ")
	n := 1
	for i := 0; i < len(ln); i++ {
		if ln[i] == '|' && (i == 0 || ln[i-1] == ' ') && (i+1 == len(ln) || ln[i+1] == ' ') {
			n++
		}
	}
	return n
}

// RowNamed reports whether text (a question) names the label of a row
// sentence (TableRowSentences: the label is what comes before ": "): the
// label as a whole word sequence, case ignored, so "SST-2" names the row
// "SST-2: ..." but not "SST-1: ...", and "CNN" is not named by "CNN-static";
// or, for a label of several words, every one of its words as a whole word
// of the question, in any order and with other words between ("an ensemble
// of 5 reversed LSTMs with beam size 12" names "Ensemble of 5 reversed
// LSTMs, beam size 12" but not its neighbour "..., beam size 2").
func RowNamed(text, row string) bool {
	label, _, ok := strings.Cut(row, ": ")
	if !ok || len(label) < 2 {
		return false
	}
	t, l := strings.ToLower(text), strings.ToLower(label)
	for from := 0; ; {
		k := strings.Index(t[from:], l)
		if k < 0 {
			break
		}
		a, z := from+k, from+k+len(l)
		if (a == 0 || !wordByte(t[a-1])) && (z == len(t) || !wordByte(t[z])) {
			return true
		}
		from = a + 1
	}
	lw := labelWords(l)
	if len(lw) < 2 {
		return false
	}
	have := map[string]bool{}
	for _, w := range labelWords(t) {
		have[w] = true
	}
	for _, w := range lw {
		if !have[w] {
			return false
		}
	}
	return true
}

// labelWords splits lower-case text at spaces and punctuation, keeping the
// characters that belong to a name ("cnn-static", "sst-2", "bilstm+elmo").
func labelWords(s string) []string {
	ws := strings.FieldsFunc(s, func(r rune) bool {
		return r < 0x80 && !wordByte(byte(r)) && r != '+' && r != '*' && r != '.' || r == ' '
	})
	out := ws[:0]
	for _, w := range ws {
		if w = strings.TrimRight(w, "."); w != "" {
			out = append(out, w) // a sentence's full stop is not part of the word
		}
	}
	return out
}

func wordByte(b byte) bool {
	return b == '-' || b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 0x80
}
