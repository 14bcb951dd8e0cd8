package llm

import (
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
)

var (
	thinkRE       = regexp.MustCompile(`(?is)<think>.*?(</think>|$)`)
	fenceRE       = regexp.MustCompile("(?s)```[a-zA-Z]*\\s*\\n?(.*?)```")
	trailingComma = regexp.MustCompile(`,(\s*[}\]])`)
)

// stripThink removes reasoning blocks (<think>...</think>) that reasoning
// models put before their answer.
func stripThink(s string) string { return strings.TrimSpace(thinkRE.ReplaceAllString(s, "")) }

// cleanText strips reasoning blocks and one surrounding code fence.
func cleanText(s string) string {
	s = stripThink(s)
	if m := fenceRE.FindStringSubmatch(s); m != nil && strings.TrimSpace(strings.Replace(s, m[0], "", 1)) == "" {
		s = m[1]
	}
	return strings.TrimSpace(s)
}

var errNoJSON = errors.New("no JSON value in the output")

// extractJSON finds the first JSON object or array in a model's output and
// decodes it. It tolerates what models do around JSON: reasoning blocks,
// ```json fences, prose before and after, trailing commas. It never
// guesses beyond that: anything else is an error and the caller falls back.
func extractJSON(s string) (any, error) {
	s = stripThink(s)
	for _, m := range fenceRE.FindAllStringSubmatch(s, -1) {
		if v, err := firstJSON(m[1]); err == nil {
			return v, nil
		}
	}
	return firstJSON(s)
}

func firstJSON(s string) (any, error) {
	for start := 0; start < len(s); {
		i := strings.IndexAny(s[start:], "{[")
		if i < 0 {
			break
		}
		i += start
		if end := matchBracket(s, i); end > 0 {
			cand := s[i : end+1]
			var v any
			if json.Unmarshal([]byte(cand), &v) == nil {
				return v, nil
			}
			if json.Unmarshal([]byte(trailingComma.ReplaceAllString(cand, "$1")), &v) == nil {
				return v, nil
			}
		}
		start = i + 1
	}
	return nil, errNoJSON
}

// matchBracket returns the index of the bracket closing s[open], honouring
// JSON strings and escapes, or -1.
func matchBracket(s string, open int) int {
	depth := 0
	inStr, esc := false, false
	for i := open; i < len(s); i++ {
		c := s[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// num reads a number the way models write them: 0.7, "0.7", "70%".
func num(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, false
		}
		return x, true
	case string:
		x = strings.TrimSpace(x)
		pct := strings.HasSuffix(x, "%")
		f, err := strconv.ParseFloat(strings.TrimSuffix(x, "%"), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, false
		}
		if pct {
			f /= 100
		}
		return f, true
	}
	return 0, false
}

// field returns the first present key of obj, trying keys in order and
// then case-insensitively.
func field(obj map[string]any, keys ...string) (any, bool) {
	for _, k := range keys {
		if v, ok := obj[k]; ok {
			return v, true
		}
	}
	for _, k := range keys {
		for ok, v := range obj {
			if normKey(ok) == normKey(k) {
				return v, true
			}
		}
	}
	return nil, false
}

func normKey(k string) string {
	k = strings.ToLower(strings.TrimSpace(k))
	return strings.NewReplacer(" ", "", "_", "", "-", "").Replace(k)
}

// str reads a string value, or the text of an object's usual text keys.
func str(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		x = strings.TrimSpace(x)
		return x, x != ""
	case map[string]any:
		if t, ok := field(x, "question", "query", "subquery", "sub_query", "text", "name", "entity"); ok {
			return str(t)
		}
	}
	return "", false
}

// list reads v as a list, or the list under one of keys when v is an object.
func list(v any, keys ...string) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case map[string]any:
		if l, ok := field(x, keys...); ok {
			if arr, ok := l.([]any); ok {
				return arr, true
			}
		}
	}
	return nil, false
}

var (
	listItemRE = regexp.MustCompile(`^\s*(?:[-*•]|\(?\d{1,2}[.):]|[Qq]\d{1,2}[.):]|(?i:sub-?(?:question|query))\s*\d{0,2}[.):])\s*(.+)$`)
	labelRE    = regexp.MustCompile(`(?i)^\s*\**\s*(?:summary|answer|rewritten question|transformed question|question|output)\s*\**\s*:\s*`)
)

// listItems reads a numbered or bulleted list from plain text.
func listItems(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if m := listItemRE.FindStringSubmatch(line); m != nil {
			if t := unquote(m[1]); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

// unquote trims whitespace, a label such as "Summary:" and surrounding
// quotes or emphasis.
func unquote(s string) string {
	s = strings.TrimSpace(labelRE.ReplaceAllString(strings.TrimSpace(s), ""))
	for range 3 {
		t := strings.TrimSpace(strings.Trim(s, "\"'`*“”‘’"))
		if t == s {
			break
		}
		s = t
	}
	return s
}
