// Package bibtex reads and writes BibTeX, for importing a researcher's .bib
// (JabRef, Zotero and Mendeley exports, whose entries name their PDFs in a
// `file` field) and exporting the papers an answer cites.
//
// Data flow: .bib bytes -> Parse -> []Entry (each whole) + []Problem (each
// broken entry with its line and the reason) -> backend/library. Write turns
// entries back into BibTeX.
//
// Invariants: Parse never fails as a whole on bad entries; an entry is
// either returned complete or reported as a Problem, never half. Input is
// untrusted: values are only ever treated as text.
package bibtex

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Entry is one BibTeX entry. Field names are lowercase; values have their
// outer braces or quotes removed and @string macros expanded, but keep their
// LaTeX (see Text for a plain-text version).
type Entry struct {
	Type   string // lowercase: article, inproceedings, ...
	Key    string
	Fields map[string]string
	Line   int // 1-based line of the '@'
}

// Problem is an entry that could not be read.
type Problem struct {
	Key    string // "" when the key itself could not be read
	Line   int
	Reason string
}

// Parse reads every entry of a .bib file. @comment, @preamble and @string
// entries are not returned (strings are expanded into later fields).
func Parse(data []byte) ([]Entry, []Problem) {
	data = decode(data)
	p := &parser{src: data, line: 1, macros: map[string]string{
		"jan": "January", "feb": "February", "mar": "March", "apr": "April", "may": "May", "jun": "June",
		"jul": "July", "aug": "August", "sep": "September", "oct": "October", "nov": "November", "dec": "December",
	}}
	var entries []Entry
	var problems []Problem
	seen := map[string]int{}
	for p.next() {
		start, line := p.pos, p.line
		e, err := p.entry()
		if err != nil {
			problems = append(problems, Problem{Key: e.Key, Line: line, Reason: err.Error()})
			p.recover(start)
			continue
		}
		if e.Type == "" { // comment, preamble, string
			continue
		}
		if !utf8.Valid(data[start:p.pos]) {
			problems = append(problems, Problem{Key: e.Key, Line: line, Reason: "it contains bytes that are not UTF-8 text; save the .bib file as UTF-8"})
			continue
		}
		if first, dup := seen[strings.ToLower(e.Key)]; dup {
			problems = append(problems, Problem{Key: e.Key, Line: line, Reason: fmt.Sprintf("the key %s is already used by the entry on line %d", e.Key, first)})
			continue
		}
		seen[strings.ToLower(e.Key)] = line
		entries = append(entries, e)
	}
	return entries, problems
}

// latinDecl matches the encoding line JabRef writes at the top of a .bib
// ("% Encoding: ISO8859_1", "% Encoding: windows-1252", "Cp1252").
var latinDecl = regexp.MustCompile(`(?im)^%\s*encoding:\s*(?:iso[-_ ]?8859[-_ ]?(?:1|15)|latin[-_ ]?1|(?:windows|cp)[-_ ]?1252)\s*$`)

// decode returns data as UTF-8. Older reference managers (JabRef before
// version 5, BibDesk and Mendeley exports on Windows) write .bib files in
// Latin-1 or Windows-1252: such a file, declared so by JabRef's
// "% Encoding:" line or holding bytes that are not UTF-8 and no multi-byte
// UTF-8 character at all, is decoded as Windows-1252 (a superset of
// Latin-1's printable characters). A file that mixes both is left as it is,
// and its entries with bytes that are not UTF-8 are reported one by one.
func decode(data []byte) []byte {
	if utf8.Valid(data) {
		return data
	}
	if !latinDecl.Match(data) {
		for i := 0; i < len(data); {
			r, n := utf8.DecodeRune(data[i:])
			if n > 1 && r != utf8.RuneError {
				return data // real UTF-8 beside the bad bytes: a mixed file
			}
			i += n
		}
	}
	out, err := charmap.Windows1252.NewDecoder().Bytes(data)
	if err != nil {
		return data
	}
	return out
}

type parser struct {
	src    []byte
	pos    int
	line   int
	macros map[string]string
}

// next moves to the next '@' and reports whether there is one.
func (p *parser) next() bool {
	for p.pos < len(p.src) {
		if p.src[p.pos] == '@' {
			return true
		}
		p.advance()
	}
	return false
}

func (p *parser) advance() {
	if p.src[p.pos] == '\n' {
		p.line++
	}
	p.pos++
}

// recover skips a broken entry: to the next '@' that starts a line (an '@'
// inside the broken entry's text must not start a new one).
func (p *parser) recover(start int) {
	p.pos, p.line = start, p.lineAt(start)
	p.advance()
	for p.pos < len(p.src) {
		if p.src[p.pos] == '@' && (p.pos == 0 || lineStart(p.src, p.pos)) {
			return
		}
		p.advance()
	}
}

func (p *parser) lineAt(pos int) int { return 1 + bytes.Count(p.src[:pos], []byte{'\n'}) }

// lineStart reports whether only blanks precede pos on its line.
func lineStart(src []byte, pos int) bool {
	for i := pos - 1; i >= 0; i-- {
		switch src[i] {
		case '\n':
			return true
		case ' ', '\t', '\r':
			continue
		default:
			return false
		}
	}
	return true
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\n' || p.src[p.pos] == '\r') {
		p.advance()
	}
}

func (p *parser) ident() string {
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c == ',' || c == '=' || c == '{' || c == '}' || c == '(' || c == ')' || c == '"' || c == '#' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '@' {
			break
		}
		p.advance()
	}
	return string(p.src[start:p.pos])
}

var errEOF = fmt.Errorf("the file ends inside the entry (a brace is not closed)")

func (p *parser) entry() (Entry, error) {
	var e Entry
	e.Line = p.line
	p.advance() // '@'
	typ := strings.ToLower(strings.TrimSpace(p.ident()))
	p.skipSpace()
	if p.pos >= len(p.src) {
		return e, errEOF
	}
	open := p.src[p.pos]
	if open != '{' && open != '(' {
		return e, fmt.Errorf("@%s is not followed by { or (", typ)
	}
	closer := byte('}')
	if open == '(' {
		closer = ')'
	}
	p.advance()
	switch typ {
	case "comment":
		// Everything up to the matching brace is a comment.
		if _, err := p.braced(closer); err != nil {
			return e, err
		}
		return Entry{}, nil
	case "preamble":
		if _, err := p.value(); err != nil {
			return e, err
		}
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != closer {
			return e, fmt.Errorf("@preamble is not closed")
		}
		p.advance()
		return Entry{}, nil
	case "string":
		p.skipSpace()
		name := strings.ToLower(p.ident())
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != '=' {
			return e, fmt.Errorf("@string %s has no '='", name)
		}
		p.advance()
		v, err := p.value()
		if err != nil {
			return e, err
		}
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != closer {
			return e, fmt.Errorf("@string %s is not closed", name)
		}
		p.advance()
		p.macros[name] = v
		return Entry{}, nil
	}
	if typ == "" {
		return e, fmt.Errorf("an entry has no type after '@'")
	}
	p.skipSpace()
	e.Key = strings.TrimSpace(p.ident())
	p.skipSpace()
	if e.Key == "" {
		return e, fmt.Errorf("the @%s entry has no citation key", typ)
	}
	if p.pos >= len(p.src) {
		return e, errEOF
	}
	if p.src[p.pos] != ',' && p.src[p.pos] != closer {
		return e, fmt.Errorf("a comma is missing after the key %s", e.Key)
	}
	e.Type = typ
	e.Fields = map[string]string{}
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			return e, errEOF
		}
		c := p.src[p.pos]
		if c == closer {
			p.advance()
			return e, nil
		}
		if c == ',' {
			p.advance()
			continue
		}
		if c == '@' {
			return e, fmt.Errorf("the entry %s is not closed before the next entry", e.Key)
		}
		name := strings.ToLower(p.ident())
		if name == "" {
			return e, fmt.Errorf("unexpected %q in entry %s (line %d)", string(c), e.Key, p.line)
		}
		p.skipSpace()
		if p.pos >= len(p.src) || p.src[p.pos] != '=' {
			return e, fmt.Errorf("the field %s of entry %s has no '=' (line %d)", name, e.Key, p.line)
		}
		p.advance()
		v, err := p.value()
		if err != nil {
			return e, fmt.Errorf("the field %s of entry %s: %w", name, e.Key, err)
		}
		if _, dup := e.Fields[name]; dup {
			return e, fmt.Errorf("the field %s appears twice in entry %s", name, e.Key)
		}
		e.Fields[name] = v
	}
}

// value reads a field value: parts ({...}, "...", numbers, macros) joined by #.
func (p *parser) value() (string, error) {
	var b strings.Builder
	for {
		p.skipSpace()
		if p.pos >= len(p.src) {
			return "", errEOF
		}
		switch c := p.src[p.pos]; {
		case c == '{':
			p.advance()
			s, err := p.braced('}')
			if err != nil {
				return "", err
			}
			b.WriteString(s)
		case c == '"':
			p.advance()
			s, err := p.quoted()
			if err != nil {
				return "", err
			}
			b.WriteString(s)
		default:
			w := p.ident()
			if w == "" {
				return "", fmt.Errorf("a value is missing (line %d)", p.line)
			}
			if _, err := strconv.Atoi(w); err == nil {
				b.WriteString(w)
			} else if m, ok := p.macros[strings.ToLower(w)]; ok {
				b.WriteString(m)
			} else {
				return "", fmt.Errorf("%q is neither braced text nor a defined @string (line %d)", w, p.line)
			}
		}
		p.skipSpace()
		if p.pos < len(p.src) && p.src[p.pos] == '#' {
			p.advance()
			continue
		}
		return b.String(), nil
	}
}

// braced reads up to the closer that balances the opening brace just read.
func (p *parser) braced(closer byte) (string, error) {
	start, depth := p.pos, 0
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '\\' && p.pos+1 < len(p.src):
			p.advance()
		case c == '{':
			depth++
		case c == '}' && depth > 0:
			depth--
		case c == closer && depth == 0:
			s := string(p.src[start:p.pos])
			p.advance()
			return s, nil
		case c == '@' && depth == 0 && lineStart(p.src, p.pos):
			return "", fmt.Errorf("a brace opened on line %d is not closed before the next entry", p.lineAt(start))
		}
		p.advance()
	}
	return "", errEOF
}

func (p *parser) quoted() (string, error) {
	start, depth := p.pos, 0
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '\\' && p.pos+1 < len(p.src):
			p.advance()
		case c == '{':
			depth++
		case c == '}':
			depth--
		case c == '"' && depth <= 0:
			s := string(p.src[start:p.pos])
			p.advance()
			return s, nil
		case c == '@' && lineStart(p.src, p.pos):
			return "", fmt.Errorf("a quote opened on line %d is not closed before the next entry", p.lineAt(start))
		}
		p.advance()
	}
	return "", errEOF
}

var accents = map[string]map[rune]string{
	`"`: {'a': "ä", 'o': "ö", 'u': "ü", 'e': "ë", 'i': "ï", 'A': "Ä", 'O': "Ö", 'U': "Ü", 'y': "ÿ"},
	`'`: {'a': "á", 'e': "é", 'i': "í", 'o': "ó", 'u': "ú", 'y': "ý", 'c': "ć", 'n': "ń", 's': "ś", 'z': "ź", 'A': "Á", 'E': "É", 'I': "Í", 'O': "Ó", 'U': "Ú"},
	"`": {'a': "à", 'e': "è", 'i': "ì", 'o': "ò", 'u': "ù", 'A': "À", 'E': "È"},
	"^": {'a': "â", 'e': "ê", 'i': "î", 'o': "ô", 'u': "û"},
	"~": {'a': "ã", 'n': "ñ", 'o': "õ", 'N': "Ñ"},
	"c": {'c': "ç", 'C': "Ç", 's': "ş"},
	"v": {'c': "č", 's': "š", 'z': "ž", 'r': "ř", 'e': "ě", 'C': "Č", 'S': "Š", 'Z': "Ž"},
	"=": {'a': "ā", 'e': "ē", 'i': "ī", 'o': "ō", 'u': "ū"},
}

var (
	accentRe  = regexp.MustCompile(`\\([\x60'^"~=]|[cv](?:\s+|\{))\s*\{?\\?([A-Za-z])\}?`)
	symbolRe  = regexp.MustCompile(`\\(ss|ae|AE|oe|OE|aa|AA|o|O|l|L|i|j)\b\{?\}?`)
	commandRe = regexp.MustCompile(`\\[A-Za-z]+\s*`)
	spaceRe   = regexp.MustCompile(`\s+`)
)

var symbols = map[string]string{"ss": "ß", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "aa": "å", "AA": "Å", "o": "ø", "O": "Ø", "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ"}

// Text turns a LaTeX field value into plain text: common accents and
// escapes become characters, other commands and braces are dropped.
func Text(v string) string {
	v = accentRe.ReplaceAllStringFunc(v, func(m string) string {
		sub := accentRe.FindStringSubmatch(m)
		cmd := strings.TrimRight(sub[1], " \t\n{")
		r, _ := utf8.DecodeRuneInString(sub[2])
		if s, ok := accents[cmd][r]; ok {
			return s
		}
		return sub[2]
	})
	v = symbolRe.ReplaceAllStringFunc(v, func(m string) string {
		return symbols[symbolRe.FindStringSubmatch(m)[1]]
	})
	r := strings.NewReplacer(`\textbackslash{}`, "\x02", `\&`, "&", `\%`, "%", `\$`, "$", `\#`, "#", `\_`, "_", `\{`, "\x00", `\}`, "\x01", "---", "—", "--", "–", "~", " ", "``", "“", "''", "”")
	v = r.Replace(v)
	v = commandRe.ReplaceAllString(v, "")
	v = strings.NewReplacer("{", "", "}", "", "\x00", "{", "\x01", "}", `\`, "", "\x02", `\`).Replace(v)
	return strings.TrimSpace(spaceRe.ReplaceAllString(v, " "))
}

// Authors splits an author (or editor) field into "First Last" names.
func Authors(v string) []string {
	var out []string
	for _, a := range splitAnd(v) {
		a = Text(a)
		if a == "" || strings.EqualFold(a, "others") {
			continue
		}
		if last, first, ok := strings.Cut(a, ","); ok {
			parts := strings.SplitN(first, ",", 2) // "von Last, Jr, First"
			first = strings.TrimSpace(parts[len(parts)-1])
			a = strings.TrimSpace(first + " " + strings.TrimSpace(last))
		}
		out = append(out, a)
	}
	return out
}

// splitAnd splits on " and " outside braces.
func splitAnd(v string) []string {
	var out []string
	depth, start := 0, 0
	lower := strings.ToLower(v)
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '{':
			depth++
		case '}':
			depth--
		}
		if depth == 0 && i > 0 && strings.HasPrefix(lower[i:], "and") && unicode.IsSpace(rune(v[i-1])) && i+3 < len(v) && unicode.IsSpace(rune(v[i+3])) {
			out = append(out, strings.TrimSpace(v[start:i]))
			start = i + 3
		}
	}
	return append(out, strings.TrimSpace(v[start:]))
}

var yearRe = regexp.MustCompile(`\b(1[5-9]\d\d|20\d\d|21\d\d)\b`)

// Year is the entry's year (from year, else date), 0 when none.
func (e Entry) Year() int {
	for _, f := range []string{"year", "date"} {
		if m := yearRe.FindString(e.Fields[f]); m != "" {
			y, _ := strconv.Atoi(m)
			return y
		}
	}
	return 0
}

// Venue is where the entry appeared, by the usual fields.
func (e Entry) Venue() string {
	for _, f := range []string{"journal", "journaltitle", "booktitle", "eventtitle", "school", "institution", "publisher", "howpublished"} {
		if v := Text(e.Fields[f]); v != "" {
			return v
		}
	}
	return ""
}

// File is one file named by an entry's file field.
type File struct {
	Description string
	Path        string // as written (unescaped); may be relative
	Type        string // "PDF", "application/pdf", ...
}

// Files reads the entry's file field in the JabRef form
// "description:path:type;..." (also written by Zotero and Mendeley, which
// escape ':' and ';' in paths with a backslash), or a bare path.
func (e Entry) Files() []File {
	v := e.Fields["file"]
	if strings.TrimSpace(v) == "" {
		v = e.Fields["pdf"] // some tools
	}
	if strings.TrimSpace(v) == "" {
		return nil
	}
	var out []File
	for _, item := range splitEscaped(v, ';') {
		parts := splitEscaped(item, ':')
		var f File
		switch {
		case len(parts) >= 3:
			f = File{Description: parts[0], Path: strings.Join(parts[1:len(parts)-1], ":"), Type: parts[len(parts)-1]}
		case len(parts) == 2 && len(parts[0]) == 1: // "C:\..." without escaping
			f = File{Path: parts[0] + ":" + parts[1]}
		default:
			f = File{Path: strings.Join(parts, ":")}
		}
		f.Path = strings.TrimSpace(f.Path)
		if f.Path != "" {
			out = append(out, f)
		}
	}
	return out
}

// splitEscaped splits on sep, honouring backslash escapes ("\:" is ':').
func splitEscaped(s string, sep byte) []string {
	var out []string
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && (s[i+1] == ':' || s[i+1] == ';' || s[i+1] == '\\') {
			b.WriteByte(s[i+1])
			i++
			continue
		}
		if c == sep {
			out = append(out, b.String())
			b.Reset()
			continue
		}
		b.WriteByte(c)
	}
	return append(out, b.String())
}

// Write writes entries as BibTeX, fields in a fixed order then the rest
// sorted. Field values are BibTeX as they stand (what Parse returns, or
// plain text passed through Escape by the caller) and are written as they
// are, braced; only a brace that would end the value early or leave it
// open is escaped (balanced). Escaping them again here turned an escaped
// "\}" into "\textbackslash{}\}".
func Write(w *bytes.Buffer, entries []Entry) {
	order := []string{"title", "author", "editor", "year", "journal", "booktitle", "publisher", "school", "volume", "number", "pages", "doi", "url", "file"}
	for i, e := range entries {
		if i > 0 {
			w.WriteByte('\n')
		}
		typ := e.Type
		if typ == "" {
			typ = "misc"
		}
		fmt.Fprintf(w, "@%s{%s,\n", typ, e.Key)
		var names []string
		for _, n := range order {
			if e.Fields[n] != "" {
				names = append(names, n)
			}
		}
		var rest []string
		for n, v := range e.Fields {
			if v != "" && !contains(order, n) {
				rest = append(rest, n)
			}
		}
		sort.Strings(rest)
		for _, n := range append(names, rest...) {
			fmt.Fprintf(w, "  %s = {%s},\n", n, balance(e.Fields[n]))
		}
		w.WriteString("}\n")
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// balance escapes the braces of a BibTeX value that are not matched (a
// "}" with no "{" before it, a "{" never closed), so the value cannot end
// early or swallow what follows; "\{" and "\}" are already escaped and do
// not count, as in Parse. A trailing lone backslash is written as
// \textbackslash{} so it cannot escape the closing brace.
func balance(v string) string {
	var open []int           // positions of unmatched "{"
	escape := map[int]bool{} // positions of braces to escape
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++ // the next byte is escaped
		case '{':
			open = append(open, i)
		case '}':
			if len(open) == 0 {
				escape[i] = true
			} else {
				open = open[:len(open)-1]
			}
		}
	}
	for _, i := range open {
		escape[i] = true
	}
	trailing := trailingBackslash(v)
	if len(escape) == 0 && !trailing {
		return v
	}
	if trailing {
		v = v[:len(v)-1]
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if escape[i] {
			b.WriteByte('\\')
		}
		b.WriteByte(v[i])
	}
	if trailing {
		b.WriteString(`\textbackslash{}`)
	}
	return b.String()
}

// trailingBackslash reports a value ending in an odd run of backslashes.
func trailingBackslash(v string) bool {
	n := 0
	for i := len(v) - 1; i >= 0 && v[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// Escape makes plain text safe inside a braced BibTeX value: LaTeX
// specials are escaped and unbalanced braces cannot end the value early.
func Escape(s string) string {
	r := strings.NewReplacer(`\`, `\textbackslash{}`, "{", `\{`, "}", `\}`, "&", `\&`, "%", `\%`, "$", `\$`, "#", `\#`, "_", `\_`, "\n", " ", "\r", " ")
	return r.Replace(s)
}

// Key makes a citation key from authors, year and title: "smith2024tree".
func Key(authors []string, year int, title string) string {
	var b strings.Builder
	if len(authors) > 0 {
		f := strings.Fields(authors[0])
		if len(f) > 0 {
			b.WriteString(asciiLower(f[len(f)-1]))
		}
	}
	if year > 0 {
		b.WriteString(strconv.Itoa(year))
	}
	stop := map[string]bool{"a": true, "an": true, "the": true, "on": true, "of": true, "for": true, "in": true, "and": true, "to": true, "with": true}
	for _, w := range strings.Fields(title) {
		if w = asciiLower(w); w != "" && !stop[w] {
			b.WriteString(w)
			break
		}
	}
	if b.Len() == 0 {
		return "paper"
	}
	return b.String()
}

// asciiLower keeps ASCII letters and digits, lowercased, and maps common
// accented letters to their base letter.
func asciiLower(s string) string {
	fold := strings.NewReplacer("ä", "a", "ö", "o", "ü", "u", "é", "e", "è", "e", "á", "a", "í", "i", "ó", "o", "ú", "u", "ñ", "n", "ç", "c", "ß", "ss", "ø", "o", "å", "a", "ł", "l", "š", "s", "č", "c", "ž", "z")
	s = fold.Replace(strings.ToLower(s))
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
