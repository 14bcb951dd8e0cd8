package treebuild

import (
	"unicode"

	"github.com/papertree/papertree/backend/internal/textsim"
)

// ratio is difflib's similarity ratio of two strings (textsim.Ratio).
func ratio(a, b string) float64 { return textsim.Ratio([]rune(a), []rune(b)) }

func isLetterOrDigit(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
