package embedding

import "github.com/papertree/papertree/backend/papertree"

// StemCache gives ContentStems' output with each distinct word stemmed
// once: a paper repeats most of its words many times, and Porter stemming
// is the bulk of reading a paper's sentences into signals. It is not safe
// for concurrent use; give each goroutine its own.
type StemCache struct {
	words map[string]int32 // scanned word -> stem id, -1 for dropped words
	ids   map[string]int32 // stem -> id
	stems []string         // by id
}

// NewStemCache returns an empty cache.
func NewStemCache() *StemCache {
	return &StemCache{words: make(map[string]int32, 4096), ids: make(map[string]int32, 2048), stems: make([]string, 0, 2048)}
}

// Len is the number of distinct stems seen so far (ids are below it).
func (c *StemCache) Len() int { return len(c.stems) }

// ContentStems calls fn with the stems ContentStems(text) returns, in the
// same order, each with its id: a small number that is the same for equal
// stems within this cache (one string value per stem, shared).
func (c *StemCache) ContentStems(text string, fn func(stem string, id int32)) {
	ScanWords(text, func(b []byte) {
		if papertree.MayHoldCJK(b) {
			if w := string(b); papertree.HasCJK(w) {
				// As ContentStems: a CJK clause gives its bigrams.
				for _, p := range papertree.CJKParts(w) {
					id, ok := c.words[p]
					if !ok {
						id = c.resolve(p)
					}
					if id >= 0 {
						fn(c.stems[id], id)
					}
				}
				return
			}
		}
		id, ok := c.words[string(b)]
		if !ok {
			id = c.resolve(string(b))
		}
		if id >= 0 {
			fn(c.stems[id], id)
		}
	})
}

// resolve stems a word first seen, exactly as eachWord and ContentStems do.
func (c *StemCache) resolve(word string) int32 {
	id := int32(-1)
	if w, ok := token(word); ok && !IsStopword(w) {
		s := Stem(w)
		var known bool
		if id, known = c.ids[s]; !known {
			id = int32(len(c.stems))
			c.stems = append(c.stems, s)
			c.ids[s] = id
		}
	}
	c.words[word] = id
	return id
}
