package store

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// gluedRE matches a model or method name typed with its number glued on
// ("GPT2", "ResNet50", "Llama2"): two or more ASCII letters, then digits.
var gluedRE = regexp.MustCompile(`\b([A-Za-z]{2,})([0-9]{1,4})\b`)

// SpellLikeLibrary rewrites names a question glues to their number
// ("GPT2") into the spelling the library's papers mostly use ("GPT-2"):
// the full-text index and the embedder split "GPT-2" into "gpt" and "2",
// so a typed "gpt2" matched none of the passages that write "GPT-2". A
// name is rewritten when more passages write it apart (as neighbouring
// words) than glued; one paper that writes "GPT2" in passing does not
// hide the paper that says "GPT-2" throughout. Names written glued
// ("FP16") stay as typed. It reads two bounded counts per glued name (a
// question rarely has one) and returns q unchanged when it has none.
func (s *Store) SpellLikeLibrary(ctx context.Context, q string) (string, error) {
	// A pasted page can hold thousands of such words: only the first few
	// are looked up (two bounded index reads each).
	locs := gluedRE.FindAllStringSubmatchIndex(q, maxGluedNames)
	if len(locs) == 0 {
		return q, nil
	}
	var b strings.Builder
	last := 0
	for _, m := range locs {
		name, num := q[m[2]:m[3]], q[m[4]:m[5]]
		split, err := s.splitMostlyUsed(ctx, strings.ToLower(name), num)
		if err != nil {
			return q, err
		}
		if split {
			b.WriteString(q[last:m[0]])
			b.WriteString(name + "-" + num)
			last = m[1]
		}
	}
	b.WriteString(q[last:])
	return b.String(), nil
}

// maxGluedNames bounds the names of one question that are looked up.
const maxGluedNames = 8

// spellCountCap bounds each count: past it the spelling is common either
// way and the counts are compared as they stand.
const spellCountCap = 200

// splitMostlyUsed reports whether more passages write name and num as
// adjacent words ("GPT-2", "GPT 2") than glued ("gpt2").
func (s *Store) splitMostlyUsed(ctx context.Context, name, num string) (bool, error) {
	count := func(match string) (int64, error) {
		var n int64
		err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM node_fts WHERE node_fts MATCH ? LIMIT ?)`, match, spellCountCap).Scan(&n)
		if err != nil {
			return 0, fmt.Errorf("text search: %w", err)
		}
		return n, nil
	}
	split, err := count(`"` + name + ` ` + num + `"`)
	if err != nil || split == 0 {
		return false, err
	}
	glued, err := count(`"` + name + num + `"`)
	return split > glued, err
}
