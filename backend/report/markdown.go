package report

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// Markdown writes d as CommonMark (with a GFM table per answer). Untrusted
// text is backslash-escaped so that it cannot become links, emphasis, raw
// HTML or headings; citation markers stay as literal "[n]".
func Markdown(w io.Writer, d Doc) error {
	v := buildView(d)
	b := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }

	p("# %s\n\n", mdLine(v.Title))
	meta := []string{v.Count}
	if v.Generated != "" {
		meta = append(meta, "generated "+v.Generated)
	}
	p("*%s by PaperTree*\n\n", strings.Join(meta, " · "))
	if len(v.Answers) > 1 {
		p("**Questions**\n\n")
		for _, a := range v.Answers {
			p("%d. %s\n", a.N, mdLine(oneLine(a.Question)))
		}
		p("\n")
	}
	for _, a := range v.Answers {
		p("---\n\n")
		if len(v.Answers) > 1 {
			p("## %d. %s\n\n", a.N, mdLine(oneLine(a.Question)))
		} else {
			p("## %s\n\n", mdLine(oneLine(a.Question)))
		}
		line := "**" + a.Kind + "**"
		if a.Date != "" {
			line += " · " + a.Date
		}
		p("%s  \n*%s*\n\n", line, a.KindNote)
		if len(a.Text) == 0 {
			p("*(empty answer)*\n\n")
		} else {
			p("%s\n\n", mdHardBreaks(mdBlock(mdSegs(a.Text), "")))
		}
		if len(a.Sources) > 0 {
			p("### Sources\n\n")
		}
		for _, s := range a.Sources {
			head := fmt.Sprintf("**[%d] %s**", s.N, mdLine(oneLine(s.Paper)))
			if !s.Cited {
				head += " *(retrieved, not cited)*"
			}
			p("%s  \n", head)
			var meta []string
			if s.Path != "" {
				meta = append(meta, mdLine(oneLine(s.Path)))
			}
			if s.Pages != "" {
				meta = append(meta, s.Pages)
			}
			if s.Score != "" {
				meta = append(meta, "score "+s.Score)
			}
			if len(meta) > 0 {
				p("%s\n", strings.Join(meta, " · "))
			}
			if s.Grid != nil {
				p("\n%s\n", mdGrid(s.Grid))
				continue
			}
			p("\n%s\n\n", mdBlock(mdEsc(s.Excerpt), "> "))
		}
		p("### Settings and diagnostics\n\n| | |\n|---|---|\n")
		for _, x := range append(append([]kv(nil), a.Settings...), a.Diag...) {
			p("| %s | %s |\n", x.K, mdCell(x.V))
		}
		p("\n")
	}
	mdTables(p, v.Tables)
	if len(v.Biblio) > 0 {
		p("---\n\n## Bibliography\n\n")
		for _, e := range v.Biblio {
			p("%d. %s\n", e.N, mdBib(e))
		}
		p("\n")
	}
	return b.Flush()
}

func mdBib(e bibEntry) string {
	var s string
	if e.Authors != "" {
		s = mdLine(oneLine(e.Authors))
		if e.Year != "" {
			s += " (" + e.Year + ")"
		}
		s += ". "
	} else if e.Year != "" {
		s = "(" + e.Year + "). "
	}
	t := strings.TrimRight(mdLine(oneLine(e.Title)), ".")
	s += "*" + t + "*."
	if e.Key != "" {
		s += " `[" + strings.ReplaceAll(e.Key, "`", "'") + "]`"
	}
	return s
}

// mdSegs renders answer text: escaped plain text and literal markers.
func mdSegs(ss []seg) string {
	var b strings.Builder
	for _, s := range ss {
		if s.Ref > 0 || s.Mark {
			b.WriteString(s.Text) // digits, brackets, commas and spaces only
			continue
		}
		b.WriteString(mdEsc(s.Text))
	}
	return b.String()
}

var mdSpecial = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`,
	`<`, `\<`, `>`, `\>`, `&`, `\&`, `|`, `\|`, `~`, `\~`)

// mdEsc escapes inline markup characters.
func mdEsc(s string) string { return mdSpecial.Replace(s) }

// mdLine escapes a single line (a heading, title or list item).
func mdLine(s string) string { return mdLineStart(mdEsc(s)) }

func mdCell(s string) string { return mdEsc(oneLine(s)) }

var mdBlockStart = regexp.MustCompile(`^(\s*)(#{1,6}|[+-]+|=+|\d{1,9}[.)])(\s|$)`)

// mdLineStart escapes what would start a heading, list or rule at the
// beginning of a line.
func mdLineStart(line string) string {
	if m := mdBlockStart.FindStringSubmatchIndex(line); m != nil {
		mark := line[m[4]:m[5]]
		if last := mark[len(mark)-1]; last == '.' || last == ')' {
			return line[:m[5]-1] + `\` + line[m[5]-1:]
		}
		return line[:m[4]] + `\` + line[m[4]:]
	}
	return line
}

// mdBlock writes already-escaped text as paragraphs, each line prefixed
// (e.g. "> " for a quote); line starts are escaped, blank lines kept.
func mdBlock(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			lines[i] = strings.TrimRight(prefix, " ")
			continue
		}
		lines[i] = prefix + mdLineStart(strings.TrimLeft(l, " \t"))
	}
	return strings.Join(lines, "\n")
}

// mdHardBreaks keeps the answer's line breaks (a which-papers answer is one
// paper a line): Markdown joins consecutive lines into one paragraph unless
// a line ends with two spaces.
func mdHardBreaks(s string) string {
	lines := strings.Split(s, "\n")
	for i := 0; i+1 < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" && strings.TrimSpace(lines[i+1]) != "" {
			lines[i] += "  "
		}
	}
	return strings.Join(lines, "\n")
}

// mdGrid renders a table leaf as a Markdown table (an empty header row
// when the table has none: Markdown tables need one).
func mdGrid(g *gridView) string {
	var b strings.Builder
	if g.Caption != "" {
		b.WriteString("*" + mdLine(g.Caption) + "*\n\n")
	}
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + mdCell(c) + " |")
		}
		b.WriteString("\n")
	}
	n := len(g.Rows[0])
	h := g.Header
	if len(h) == 0 {
		h = make([]string, n)
	}
	row(h)
	b.WriteString("|" + strings.Repeat("---|", n) + "\n")
	for _, r := range g.Rows {
		row(r)
	}
	return b.String()
}
