package retrieve

import "github.com/papertree/papertree/backend/query"

// The question is read once, by package query; these are its readings
// under the names retrieval has always used.

// Question kinds.
const (
	KindFactual = query.KindFactual
	KindHowWhy  = query.KindHowWhy
	KindYesNo   = query.KindYesNo
)

// QuestionKind is query.KindOf.
func QuestionKind(q string) string { return query.KindOf(q) }

// QuestionTerms is query.Terms.
func QuestionTerms(q string) []string { return query.Terms(q) }

// QuestionFocus is query.Focus.
func QuestionFocus(q string) []string { return query.Focus(q) }

// PaperRefWords is query.RefWords.
func PaperRefWords(q string) map[string]bool { return query.RefWords(q) }

// WantsCitations is query.WantsCitations.
func WantsCitations(q string) bool { return query.WantsCitations(q) }

// NameLike is query.NameLike.
func NameLike(w string) bool { return query.NameLike(w) }
