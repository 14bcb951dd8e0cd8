package query

import "regexp"

// The paper details a question may ask for (Question.Detail).
const (
	DetailAuthors = "authors"
	DetailYear    = "year"
	DetailVenue   = "venue"
	DetailDOI     = "doi"
)

// paperWord is a word that makes the thing asked about a publication.
const paperWord = `(?:paper|article|study|thesis|dissertation|report|preprint|publication|manuscript|book|chapter)`

// named is a name typed as one: one to four capitalised words ("GloVe",
// "Deep Residual Learning"), matched case-sensitively inside the (?i)
// patterns.
const named = `(?-i:[A-Z][\w\-]*(?:\s+[A-Z][\w\-]*){0,3})`

// detailREs read a question about a paper as a publication: who wrote it,
// when or where it was published, its DOI. The publication must be named
// as one ("the BERT paper", "this article", "the authors of ...");
// "Who wrote the R package?" and "When was the data released?" ask about
// what the paper says, and keep the ordinary answer.
var detailREs = []struct {
	detail string
	re     *regexp.Regexp
}{
	{DetailAuthors, regexp.MustCompile(`(?i)^\s*(?:` +
		`who\s+(?:are|were|is|was)\s+(?:the\s+|its\s+)?(?:first\s+|lead\s+|main\s+|last\s+|senior\s+|corresponding\s+)?authors?\b` +
		`|(?:which|what)\s+(?:people|researchers|authors)\s+(?:wrote|authored)\b` +
		`|who\s+(?:wrote|authored|co-?authored)\s+(?:the|this|that|their|its)\s+(?:[^?,;]*\s)?` + paperWord + `\b` +
		`|(?:list|name|give)\s+(?:me\s+)?the\s+authors\s+of\b` +
		`|what\s+are\s+the\s+(?:names\s+of\s+the\s+)?authors\s+of\b` +
		`|who\s+(?:wrote|authored)\s+` + named + `\s*\??\s*$` +
		`|by\s+whom\s+(?:was|is)\s+(?:the|this|that)\s+(?:[^?,;]*\s)?` + paperWord + `\s+(?:written|authored)\b)`)},
	{DetailYear, regexp.MustCompile(`(?i)^\s*(?:` +
		`(?:when|in\s+(?:what|which)\s+year)\s+(?:was|were|did)\s+(?:the|this|that|their|its)\s+(?:[^?,;]*\s)?` + paperWord + `\b(?:[^?,;]*\s)?(?:first\s+)?(?:published|written|released|come\s+out|appear(?:ed)?|presented)\b` +
		`|what\s+(?:year|date)\s+(?:is|was)\s+(?:the|this|that|their|its)\s+(?:[^?,;]*\s)?` + paperWord + `\s+(?:from|published|dated|written)\b` +
		`|(?:when|in\s+(?:what|which)\s+year)\s+(?:was|were)\s+` + named + `\s+(?:first\s+)?published\b` +
		`|what\s+is\s+the\s+(?:publication\s+)?(?:year|date)\s+of\s+(?:the|this|that)\s+(?:[^?,;]*\s)?` + paperWord + `\b)`)},
	{DetailVenue, regexp.MustCompile(`(?i)^\s*(?:` +
		`(?:where|in\s+(?:what|which)\s+(?:venue|conference|journal|proceedings|workshop))\s+(?:was|were|did)\s+(?:the|this|that|their|its)\s+(?:[^?,;]*\s)?` + paperWord + `\b(?:[^?,;]*\s)?(?:first\s+)?(?:published|appear(?:ed)?|presented)\b` +
		`|(?:what|which)\s+(?:venue|conference|journal|workshop)\s+(?:was|were|is|did)\s+(?:the|this|that|their|its)\s+(?:[^?,;]*\s)?` + paperWord + `\s+(?:published|presented|appear(?:ed)?|in|at)\b` +
		`|where\s+(?:was|were)\s+` + named + `\s+(?:first\s+)?published\b` +
		`|(?:what|which)\s+(?:venue|conference|journal|workshop)\s+published\s+(?:the|this|that)\s+(?:[^?,;]*\s)?` + paperWord + `\b)`)},
	{DetailDOI, regexp.MustCompile(`(?i)^\s*what(?:\s+is|'s|’s)\s+(?:the\s+|its\s+)?(?:doi|arxiv\s+(?:id|identifier|number))\b`)},
}

// DetailOf returns the paper detail question text asks for (DetailAuthors,
// DetailYear, DetailVenue, DetailDOI), or "".
func DetailOf(text string) string {
	for _, d := range detailREs {
		if d.re.MatchString(text) {
			return d.detail
		}
	}
	return ""
}
