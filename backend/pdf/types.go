package pdf

// Run is a piece of positioned text on one page: a word, or a contiguous
// fragment of glyphs in one font on one baseline. Coordinates are PDF points
// with the origin at the TOP-LEFT of the page (y grows downwards), matching
// papertree.Box.
type Run struct {
	Text   string  `json:"text"`
	Font   string  `json:"font"` // base font name, subset prefix ("ABCDEF+") removed
	Size   float64 `json:"size"` // effective font size in points (font size x text matrix scale)
	Bold   bool    `json:"bold,omitempty"`
	Italic bool    `json:"italic,omitempty"`
	X      float64 `json:"x"` // left edge
	Y      float64 `json:"y"` // baseline, measured from the top of the page
	W      float64 `json:"w"` // advance width (0 only when the font gives none and it cannot be estimated)

	// Rotated marks text whose direction is not left-to-right horizontal
	// (e.g. the arXiv identifier stamped up the margin, rotated table
	// headers). For such runs X/Y is the first glyph's origin and W the
	// length along the text direction.
	Rotated bool `json:"rotated,omitempty"`
	// Invisible marks text drawn in an invisible rendering mode, typically
	// the OCR layer of a scanned paper. It is real text, just not painted.
	Invisible bool `json:"invisible,omitempty"`
	// Glued marks a run that continues the previous run of the page with
	// no space between them: the same word split by a change of font or
	// size ("B" bold + "idirectional", "BERT" + ",", a superscript mark).
	// Joining runs: no space before a glued run, one space otherwise (a
	// new line aside).
	Glued bool `json:"glued,omitempty"`
}

// Page is one page of text in content-stream order.
type Page struct {
	Number int     `json:"number"` // 1-based physical page
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Runs   []Run   `json:"runs"`

	// TextQuality is this page's share of plausible characters (see
	// Document.TextQuality); 1 for a page without text.
	TextQuality float64 `json:"text_quality"`
}

// OutlineItem is one PDF bookmark, flattened in document order.
type OutlineItem struct {
	Title string `json:"title"`
	Level int    `json:"level"` // 1 = top-level bookmark
	Page  int    `json:"page"`  // 1-based target page, 0 when it cannot be resolved
}

// Info is the PDF document information dictionary (all fields optional).
type Info struct {
	Title    string `json:"title,omitempty"`
	Author   string `json:"author,omitempty"`
	Subject  string `json:"subject,omitempty"`
	Keywords string `json:"keywords,omitempty"`
	Creator  string `json:"creator,omitempty"`
	Producer string `json:"producer,omitempty"`
}

// Document is everything the tree builder needs from one PDF.
type Document struct {
	Pages   []Page        `json:"pages"`
	Outline []OutlineItem `json:"outline,omitempty"`
	Info    Info          `json:"info"`

	// TextQuality is the share (0..1) of non-space characters that decode
	// to plausible text (letters, digits, ordinary punctuation and
	// symbols) rather than replacement characters, control codes,
	// private-use glyphs or raw codes of fonts without a Unicode mapping
	// (e.g. Type 3 glyph names like /a12 with no ToUnicode map).
	// Garbled is set when it is too low to trust the text layer
	// (see GarbledThreshold). Parse still returns the document: the tree
	// builder decides whether to fail with papertree.EGarbled.
	TextQuality float64 `json:"text_quality"`
	Garbled     bool    `json:"garbled,omitempty"`
	// SkippedPages lists 1-based pages whose content could not be read
	// (the parser failed on them); they are present in Pages with no runs.
	SkippedPages []int `json:"skipped_pages,omitempty"`
}

// Options bound the work done on one file. MaxBytes and MaxPages are off
// at 0. The budgets below are enforced while the file is read (never after
// the fact); 0 means the default (DefaultBudget) and a negative value means
// no limit. A budget hit fails the file with papertree.ETooComplex.
type Options struct {
	MaxBytes int64 // files larger than this fail with ETooLarge; 0 = no limit
	MaxPages int   // documents with more pages fail with ETooLarge; 0 = no limit

	MaxStreamBytes int64 // decoded (inflated) bytes of one stream
	MaxDocBytes    int64 // decoded bytes of all streams; a stream read by several pages counts at every read
	MaxOperands    int   // operands waiting for one operator (content streams, CMaps)
	MaxCMapEntries int   // entries of one character map (ToUnicode CMap)
	MaxPageRuns    int   // runs (words) on one page
	MaxRuns        int   // runs in the whole document
}

// DefaultBudget holds the budgets used for zero Options fields. They are far
// above what real papers need (over the 44-paper test corpus: at most 1,734
// runs on a page and 53,526 in a document, a 200-page thesis included) and
// low enough that one file stays within about 150 MB while it is parsed
// and its tree built. 400,000 words is a book of some 800 dense pages.
var DefaultBudget = Options{
	MaxStreamBytes: 64 << 20,
	MaxDocBytes:    512 << 20,
	MaxOperands:    1 << 18, // CMaps push two operands per entry before the operator
	MaxCMapEntries: 1 << 17,
	MaxPageRuns:    30_000,
	MaxRuns:        400_000,
}

// maxWordBytes is the longest run kept in one piece; a longer "word" (no
// space or gap in 450,000 characters is an attack, not a paper) continues
// in a new run glued to the previous one, so no text is lost and building
// it stays linear.
const maxWordBytes = 1024

// budget resolves o's budgets against DefaultBudget (0 = default, <0 = off).
func (o Options) budget() Options {
	pick64 := func(v, d int64) int64 {
		switch {
		case v == 0:
			return d
		case v < 0:
			return 0
		}
		return v
	}
	pick := func(v, d int) int { return int(pick64(int64(v), int64(d))) }
	b := o
	b.MaxStreamBytes = pick64(o.MaxStreamBytes, DefaultBudget.MaxStreamBytes)
	b.MaxDocBytes = pick64(o.MaxDocBytes, DefaultBudget.MaxDocBytes)
	b.MaxOperands = pick(o.MaxOperands, DefaultBudget.MaxOperands)
	b.MaxCMapEntries = pick(o.MaxCMapEntries, DefaultBudget.MaxCMapEntries)
	b.MaxPageRuns = pick(o.MaxPageRuns, DefaultBudget.MaxPageRuns)
	b.MaxRuns = pick(o.MaxRuns, DefaultBudget.MaxRuns)
	return b
}
