package answer

import (
	"fmt"
	"strings"

	"github.com/papertree/papertree/backend/papertree"
)

// ComposeList answers a which-papers question from its verified findings
// (retrieve's list route): one line per paper, strongest first, with the
// sentence of its own text that states the property and its citation.
// With no finding the reply is "No paper in this library says so"; it adds
// that the library never mentions a topic word only when the full-text
// index holds it nowhere in the scope (c.Holders), never on the strength of
// a score. topic are the words a paper had to hold (one per alternative);
// unread counts the papers holding one that were not read (the bound of
// papers a question reads), which the reply states rather than hides.
func ComposeList(findings []papertree.PaperFinding, topic []string, unread int, c Claims) Output {
	out := composeList(findings, topic, c)
	if unread > 0 {
		more := fmt.Sprintf("%d more papers", unread)
		if unread == 1 {
			more = "1 more paper"
		}
		out.Text += "\n(" + more + " mention " + quoteList(topic) + " but were not read: ask about fewer papers to check them.)"
		if out.NotFound {
			out.Text = strings.Replace(out.Text, "No paper in this library says so: no paper's own text states it.",
				"None of the papers read says so in its own text.", 1)
			out.Absent = nil // the unread papers hold the words
		}
	}
	return out
}

func composeList(findings []papertree.PaperFinding, topic []string, c Claims) Output {
	if len(findings) > 0 {
		var b strings.Builder
		if len(findings) == 1 {
			b.WriteString("1 paper of the library states it:\n")
		} else {
			fmt.Fprintf(&b, "%d papers of the library state it:\n", len(findings))
		}
		out := Output{}
		for i, f := range findings {
			title := f.Title
			if title == "" {
				title = fmt.Sprintf("paper %d", f.PaperID)
			}
			fmt.Fprintf(&b, "%d. %s: “%s” [%d]\n", i+1, title, strings.TrimSpace(f.Sentence), f.Cite)
			out.Cited = append(out.Cited, f.Cite-1)
		}
		out.Text = strings.TrimRight(b.String(), "\n")
		return out
	}
	out := Output{NotFound: true, Text: "No paper in this library says so: no paper's own text states it."}
	none := "No paper of this library"
	switch {
	case len(c.Scope) == 1 && c.Name != "":
		out.Text, none = c.Name+" does not say so in its own text.", c.Name+" never"
	case len(c.Scope) == 1:
		out.Text, none = "The paper does not say so in its own text.", "The paper never"
	case len(c.Scope) > 1:
		out.Text, none = "None of these papers says so in its own text.", "None of these papers"
	}
	var never []string
	for _, w := range topic {
		if c.Holders == nil {
			continue
		}
		ids, ok := c.holders(w)
		if !ok {
			continue
		}
		in := false
		for _, id := range ids {
			if len(c.Scope) == 0 || containsID(c.Scope, id) {
				in = true
				break
			}
		}
		if !in {
			never = append(never, w)
			out.Absent = append(out.Absent, papertree.AbsenceClaim{Word: w, Papers: c.Scope})
		}
	}
	if len(never) > 0 {
		out.Text += " " + none + " mentions " + quoteList(never) + "."
	}
	out.Reason = out.Text
	return out
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

func quoteList(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = "“" + w + "”"
	}
	switch len(q) {
	case 1:
		return q[0]
	case 2:
		return q[0] + " or " + q[1]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
