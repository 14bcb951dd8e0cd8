package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/papertree/papertree/backend/embedding"
	"github.com/papertree/papertree/backend/papertree"
)

// MetaHolders returns the ready papers whose metadata holds the word or
// phrase s: the title, authors, venue, DOI, arXiv id, affiliations,
// abstract or year a paper is listed with (corrections included), read
// with the full-text index's normalisation (NFKC, lower case, diacritics
// folded, Porter stems, its words in a row or written together). The
// full-text index holds the papers' nodes; a paper's metadata may come
// from its PDF's information dictionary, a Zotero import or the
// researcher's correction and be printed nowhere in its text, and a word
// it holds is still not one the paper "never mentions".
func (s *Store) MetaHolders(ctx context.Context, phrase string) ([]int64, error) {
	toks := foldTokens(phrase)
	if len(toks) == 0 || len(toks) > maxQueryTerms {
		return nil, papertree.Errorf(papertree.EInvalid, "%q holds no word to look up.", phrase)
	}
	want := make([]string, len(toks))
	for i, t := range toks {
		want[i] = embedding.PorterStem(t)
	}
	joined := embedding.PorterStem(strings.Join(toks, ""))
	// As phraseVariants: one word of six letters or more, no digit, may be
	// printed in two parts ("pre-training").
	split := len(toks) == 1 && utf8.RuneCountInString(toks[0]) >= 6 && strings.IndexFunc(toks[0], unicode.IsDigit) < 0
	// Candidates: rows holding the start every printed form of the
	// longest word shares (a LIKE pattern; the rows are then read word by
	// word).
	key := toks[0]
	for _, t := range toks {
		if utf8.RuneCountInString(t) > utf8.RuneCountInString(key) {
			key = t
		}
	}
	key = commonPrefix(key, embedding.PorterStem(key), embedding.Singular(key))
	// A stem may end in a letter the printed form does not ("studi" for
	// "study"), and a word printed in two parts holds only its first
	// three letters together.
	if n := len(key) - 1; split && n > 3 {
		key = key[:3]
	} else if n >= 3 {
		key = key[:n]
	}
	like := "%"
	if len(key) >= 3 && isASCII(key) {
		like = "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(key) + "%"
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, title, authors, venue, doi, arxiv_id, affiliations, abstract, year FROM papers
		WHERE status = 'ready' AND (title || ' ' || authors || ' ' || venue || ' ' || doi || ' ' || arxiv_id || ' ' ||
			affiliations || ' ' || abstract || ' ' || year) LIKE ? ESCAPE '\'`, like)
	if err != nil {
		return nil, fmt.Errorf("metadata holders of %q: %w", phrase, err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		var year int
		f := make([]string, 7)
		if err := rows.Scan(&id, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &year); err != nil {
			return nil, fmt.Errorf("metadata holders of %q: %w", phrase, err)
		}
		if year > 0 {
			f = append(f, fmt.Sprint(year))
		}
		for _, field := range f {
			if metaHolds(field, want, joined, split) {
				out = append(out, id)
				break
			}
		}
	}
	return out, rows.Err()
}

// metaHolds reports whether one metadata field holds the stems want in a
// row, or their words written together (stem joined), or with split the
// one word printed in two parts.
func metaHolds(field string, want []string, joined string, split bool) bool {
	ts := foldTokens(field)
	st := make([]string, len(ts))
	for i, t := range ts {
		st[i] = embedding.PorterStem(t)
	}
	for i := range st {
		if st[i] == joined && len(want) > 1 {
			return true
		}
		if i+len(want) <= len(st) && slices.Equal(st[i:i+len(want)], want) {
			return true
		}
		if split && i+1 < len(ts) && embedding.PorterStem(ts[i]+ts[i+1]) == want[0] {
			return true // "pretraining" printed "pre-training"
		}
	}
	return false
}

// foldTokens is phraseTokens with diacritics folded by foldDiacritics, the
// fold the full-text index's tokenizer applies (remove_diacritics).
func foldTokens(s string) []string {
	return phraseTokens(foldDiacritics(norm.NFKC.String(strings.ToLower(s))))
}

func commonPrefix(a string, others ...string) string {
	for _, o := range others {
		if o == "" {
			continue
		}
		n := 0
		for n < len(a) && n < len(o) && a[n] == o[n] {
			n++
		}
		a = a[:n]
	}
	return a
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
