package llm

import (
	"context"
	"regexp"
	"strconv"
	"strings"
)

// EvidenceRef is one evidence item as the answer prompt shows it.
type EvidenceRef struct {
	Marker     string   // "[1]"; empty means "[i+1]" for the i-th item
	PaperTitle string   //
	Path       []string // root-to-section titles
	Summary    string   // structure-anchored summary, may be empty
	Text       string   // the raw segment
}

// AnswerInput is a question and the only evidence the answer may cite.
type AnswerInput struct {
	Question string
	Evidence []EvidenceRef
}

// AnswerOutput is a generated answer.
type AnswerOutput struct {
	// Text is the answer with citation markers; markers that named unknown
	// evidence have been removed. When NotFound, Text is the model's
	// explanation of what is missing.
	Text string
	// Citations are indices into AnswerInput.Evidence (0-based), in order of
	// first citation.
	Citations []int
	// UnknownCitations counts cited numbers that matched no evidence.
	UnknownCitations int
	// NotFound is true when the model said the evidence does not answer.
	NotFound bool
}

// Answer generates an answer that cites only in.Evidence, streaming the
// text through onDelta (may be nil) as it arrives, already cleaned of
// unknown citation markers and of a leading <think> block.
//
// Citation markers understood: "[n]", "[n, m]", "[n; m]", "[n-m]" (ranges
// up to 20) and runs like "[1][2]". "(n)" is NOT read as a citation:
// papers use it for equations and enumerations, and the prompt asks for
// brackets. A bracket whose numbers all name unknown evidence is removed
// with the space before it; a mixed one keeps its known numbers.
//
// NotFound is set when the reply starts with "NOT FOUND:" (the prompt's
// convention, also "NOT_FOUND" and **bold**), or when a short reply without
// any valid citation says the evidence/papers do not contain the answer.
//
// Fallback (Outcome.Fallback; AnswerOutput is then empty and the caller
// uses its extractive answer): no LLM, no evidence, the call failed (also
// mid-stream: discard what onDelta showed), or the output was empty.
func (o *Ops) Answer(ctx context.Context, in AnswerInput, onDelta func(string)) (AnswerOutput, Outcome) {
	out := Outcome{Op: OpAnswer}
	if o.client() == nil {
		return AnswerOutput{}, fallback(out, reasonNoLLM, nil)
	}
	if len(in.Evidence) == 0 {
		return AnswerOutput{}, fallback(out, "no evidence to answer from", nil)
	}
	known := map[int]int{}
	data := struct {
		Question string
		Evidence []EvidenceRef
	}{Question: clip(in.Question)}
	for i, e := range in.Evidence {
		n := i + 1
		if m := markerNumRE.FindStringSubmatch(e.Marker); m != nil {
			n, _ = strconv.Atoi(m[1])
		}
		if _, dup := known[n]; !dup {
			known[n] = i
		}
		e.Marker = "[" + strconv.Itoa(n) + "]"
		data.Evidence = append(data.Evidence, e)
	}
	f := newCiteFilter(known, onDelta)
	maxTokens := 0
	if o != nil {
		maxTokens = o.AnswerMaxTokens
	}
	// nil temperature: the answer uses Config.Temperature, the user's setting.
	_, out, ok := o.call(ctx, OpAnswer, data, false, nil, maxTokens, f.write)
	if !ok {
		return AnswerOutput{}, out
	}
	f.flush()
	ans := AnswerOutput{Text: strings.TrimSpace(f.text.String()), Citations: f.cited, UnknownCitations: f.unknown}
	if ans.Text == "" {
		return AnswerOutput{}, fallback(out, "the LLM answer was empty after removing invalid citations", nil)
	}
	if nf, rest := notFound(ans.Text, len(ans.Citations)); nf {
		ans.NotFound = true
		if rest != "" {
			ans.Text = rest
		}
	}
	return ans, out
}

var (
	markerNumRE = regexp.MustCompile(`^\s*\[?\s*(\d+)\s*\]?\s*$`)
	citeBodyRE  = regexp.MustCompile(`^\s*\d+(?:\s*[-–]\s*\d+)?(?:\s*[,;]\s*\d+(?:\s*[-–]\s*\d+)?)*\s*$`)
	notFoundRE  = regexp.MustCompile(`(?i)^[\s*_#>]*not[ _]found\b[\s*_]*[:.\-–—]?[\s*_]*`)
	negationRE  = regexp.MustCompile(`(?i)\b(does not|do not|doesn't|don't|cannot|can't|no information|not (?:contain|mention|provide|answer|specify|include|state|say|discuss|address))\b`)
	evidenceRE  = regexp.MustCompile(`(?i)\b(evidence|context|provided (?:passages|text|excerpts|papers)|these papers|the papers?)\b`)
)

// notFound detects an explicit "the evidence does not answer" reply.
func notFound(text string, validCitations int) (bool, string) {
	if loc := notFoundRE.FindStringIndex(text); loc != nil {
		return true, strings.TrimSpace(strings.Trim(text[loc[1]:], "*_ "))
	}
	if validCitations == 0 && len(strings.Fields(text)) <= 60 && negationRE.MatchString(text) && evidenceRE.MatchString(text) {
		return true, ""
	}
	return false, ""
}

// citeFilter rewrites a streamed answer on the fly: it holds back text from
// an opening "[" until the bracket closes (or clearly is not a citation),
// then passes it through, trims it to the known numbers, or drops it with
// the whitespace before it. It also swallows a leading <think> block.
type citeFilter struct {
	known   map[int]int
	emit    func(string)
	text    strings.Builder
	space   []byte // whitespace held until we know whether a dropped marker follows
	pend    []byte // an open "[..." being held
	head    []byte // output held while deciding whether it starts with <think>
	think   int    // 0 undecided, 1 inside <think>, 2 decided
	started bool   // a non-space byte was emitted (leading whitespace is dropped)
	cited   []int
	seen    map[int]bool
	unknown int
}

func newCiteFilter(known map[int]int, emit func(string)) *citeFilter {
	if emit == nil {
		emit = func(string) {}
	}
	return &citeFilter{known: known, emit: emit, seen: map[int]bool{}}
}

const maxMarkerBytes = 40

func (f *citeFilter) write(s string) {
	if f.think != 2 {
		s = f.skipThink(s)
		if s == "" {
			return
		}
	}
	var buf []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !f.started {
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				continue
			}
			f.started = true
		}
		if f.pend != nil {
			if c == '[' {
				buf = f.release(buf)
				f.pend = []byte{'['}
				continue
			}
			f.pend = append(f.pend, c)
			switch {
			case c == ']':
				buf = f.resolve(buf)
			case c == '\n' || len(f.pend) > maxMarkerBytes:
				buf = f.release(buf)
			}
			continue
		}
		switch c {
		case '[':
			f.pend = []byte{'['}
		case ' ', '\t':
			f.space = append(f.space, c)
		default:
			buf = append(buf, f.space...)
			f.space = f.space[:0]
			buf = append(buf, c)
		}
	}
	f.out(buf)
}

// skipThink consumes a leading <think>...</think> block.
func (f *citeFilter) skipThink(s string) string {
	const open, close = "<think>", "</think>"
	if f.think == 0 {
		f.head = append(f.head, s...)
		h := strings.TrimLeft(string(f.head), " \t\r\n")
		switch {
		case len(h) < len(open) && strings.HasPrefix(open, h):
			return ""
		case strings.HasPrefix(h, open):
			f.think, f.head = 1, []byte(h[len(open):])
		default:
			f.think = 2
			s, f.head = string(f.head), nil
			return s
		}
	} else {
		f.head = append(f.head, s...)
	}
	if i := strings.Index(string(f.head), close); i >= 0 {
		rest := strings.TrimLeft(string(f.head[i+len(close):]), " \t\r\n")
		f.think, f.head = 2, nil
		return rest
	}
	return ""
}

func (f *citeFilter) out(buf []byte) {
	if len(buf) > 0 {
		f.text.Write(buf)
		f.emit(string(buf))
	}
}

// release emits the held bracket as ordinary text.
func (f *citeFilter) release(buf []byte) []byte {
	buf = append(buf, f.space...)
	buf = append(buf, f.pend...)
	f.space, f.pend = f.space[:0], nil
	return buf
}

func (f *citeFilter) resolve(buf []byte) []byte {
	body := string(f.pend[1 : len(f.pend)-1])
	nums, ok := citeNumbers(body)
	if !ok {
		return f.release(buf)
	}
	var keep []string
	for _, n := range nums {
		idx, known := f.known[n]
		if !known {
			f.unknown++
			continue
		}
		keep = append(keep, strconv.Itoa(n))
		if !f.seen[idx] {
			f.seen[idx] = true
			f.cited = append(f.cited, idx)
		}
	}
	switch {
	case len(keep) == len(nums):
		return f.release(buf)
	case len(keep) == 0:
		f.space, f.pend = f.space[:0], nil
		return buf
	}
	f.pend = []byte("[" + strings.Join(keep, ", ") + "]")
	return f.release(buf)
}

// citeNumbers parses "1", "1, 2", "1;2", "1-3"; ok=false when body is not
// a citation list ("[CLS]", "[0.5, 1]", "[x]") or a range is reversed or
// longer than 20, which is a formula or an interval, not a citation.
func citeNumbers(body string) ([]int, bool) {
	if !citeBodyRE.MatchString(body) {
		return nil, false
	}
	var out []int
	for _, part := range strings.FieldsFunc(body, func(r rune) bool { return r == ',' || r == ';' }) {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(strings.ReplaceAll(part, "–", "-"), "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil {
			return nil, false
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil || b < a || b-a > 20 {
				return nil, false
			}
		}
		for n := a; n <= b; n++ {
			out = append(out, n)
		}
	}
	return out, len(out) > 0
}

// flush emits whatever is held at the end of the stream.
func (f *citeFilter) flush() {
	if f.think == 0 {
		// A short output that merely looked like the start of <think>.
		head := string(f.head)
		f.head, f.think = nil, 2
		f.write(head)
	}
	// An unfinished <think> block is dropped.
	f.head, f.think = nil, 2
	var buf []byte
	if f.pend != nil {
		buf = f.release(buf)
	}
	f.space = f.space[:0] // trailing whitespace carries nothing
	f.out(buf)
}
