package embedding

import "sync"

var pluralOnce sync.Once
var pluralOf map[string]string

// Plural is the classical plural of a singular ("corpus" -> "corpora"), or
// "" for any other word: the inverse of Singular, so a word typed in the
// singular also finds its classical plural in the full-text index.
func Plural(singular string) string {
	pluralOnce.Do(func() {
		pluralOf = make(map[string]string, len(classicalPlurals))
		for p, s := range classicalPlurals {
			pluralOf[s] = p
		}
	})
	return pluralOf[singular]
}
