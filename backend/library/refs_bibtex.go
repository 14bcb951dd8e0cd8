package library

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/papertree/papertree/backend/bibtex"
	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/store"
)

// maxBibSize bounds the .bib files read whole into memory.
const maxBibSize = 64 << 20

// ImportBibTeX imports the entries of a .bib file that name a PDF in their
// file field (JabRef, Zotero and Mendeley exports). Each entry is imported
// whole or reported in Skipped with its reason: broken syntax, bytes that
// are not UTF-8, no file, a file that is missing or not a PDF, a relative
// path that leaves the .bib file's folder. An entry that could not be read
// (broken syntax, such as an entry never closed) is also listed in
// Index.Failed with the .bib file, so a JSON reader sees it as a failure. Relative paths are resolved
// against the .bib file's folder (JabRef's default).
func (l *Library) ImportBibTeX(ctx context.Context, file string, progress func(Event)) (ImportSummary, error) {
	st, err := os.Stat(file)
	if err != nil {
		return ImportSummary{}, papertree.Errorf(papertree.ENotFound, "%s does not exist.", file)
	}
	if st.IsDir() || st.Size() > maxBibSize {
		return ImportSummary{}, papertree.Errorf(papertree.EInvalid, "%s is not a BibTeX file.", file)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return ImportSummary{}, papertree.Wrap(err, papertree.EInvalid, fmt.Sprintf("%s could not be read.", file))
	}
	abs, _ := filepath.Abs(file)
	entries, problems := bibtex.Parse(data)
	if len(entries) == 0 && len(problems) == 0 {
		return ImportSummary{}, papertree.Errorf(papertree.EInvalid, "%s has no BibTeX entries.", filepath.Base(file))
	}
	items := make([]importItem, 0, len(entries)+len(problems))
	for _, p := range problems {
		label := p.Key
		if label == "" {
			label = fmt.Sprintf("entry on line %d", p.Line)
		}
		items = append(items, importItem{label: label, skips: []string{fmt.Sprintf("line %d: %s", p.Line, p.Reason)}, broken: abs})
	}
	var collections []string
	for _, e := range entries {
		items = append(items, bibItem(e, abs))
		collections = append(collections, splitList(e.Fields["groups"])...)
	}
	sum, err := l.importItems(ctx, items, progress)
	sum.Collections = uniqueSorted(collections)
	if sum.Collections == nil {
		sum.Collections = []string{}
	}
	return sum, err
}

func bibItem(e bibtex.Entry, bibFile string) importItem {
	it := importItem{label: e.Key}
	dir := filepath.Dir(bibFile)
	files := e.Files()
	if len(files) == 0 {
		it.skips = append(it.skips, "it has no file field naming its PDF")
		return it
	}
	meta := store.RefMeta{
		Source: store.SourceBibTeX, SourceFile: bibFile, SourceID: e.Key, CitationKey: e.Key,
		Title: bibtex.Text(e.Fields["title"]), Authors: bibtex.Authors(e.Fields["author"]), Year: e.Year(),
		Venue: e.Venue(), DOI: bibtex.Text(e.Fields["doi"]),
		Tags: splitList(e.Fields["keywords"]), Collections: splitList(e.Fields["groups"]),
	}
	if len(meta.Authors) == 0 {
		meta.Authors = bibtex.Authors(e.Fields["editor"])
	}
	for _, f := range files {
		p, why := resolveBibFile(f, dir)
		if why != "" {
			it.skips = append(it.skips, why)
			continue
		}
		m := meta
		m.Path = p
		it.refs = append(it.refs, m)
	}
	return it
}

// resolveBibFile returns the PDF a file field names, or why it cannot be used.
func resolveBibFile(f bibtex.File, dir string) (path, why string) {
	p := filepath.FromSlash(f.Path)
	if strings.HasPrefix(p, "~"+string(filepath.Separator)) {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[2:])
		}
	}
	if !filepath.IsAbs(p) {
		joined := filepath.Join(dir, p)
		if rel, err := filepath.Rel(dir, joined); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", fmt.Sprintf("the file %s points outside the folder of the .bib file; give its absolute path", f.Path)
		}
		p = joined
	}
	p = filepath.Clean(p)
	isPDF := strings.EqualFold(filepath.Ext(p), ".pdf") || strings.Contains(strings.ToLower(f.Type), "pdf")
	if !isPDF {
		return "", fmt.Sprintf("the file %s is not a PDF", filepath.Base(p))
	}
	st, err := os.Stat(p)
	switch {
	case err != nil:
		return "", fmt.Sprintf("the file %s is missing", p)
	case st.IsDir():
		return "", fmt.Sprintf("%s is a folder, not a PDF file", p)
	}
	return p, ""
}

// splitList splits a keywords/groups field on commas and semicolons.
func splitList(v string) []string {
	var out []string
	for _, s := range strings.FieldsFunc(bibtex.Text(v), func(r rune) bool { return r == ',' || r == ';' }) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// BibEntries returns BibTeX entries for papers (in the order given, each
// once): reference metadata where there is some, the PDF's otherwise. The key
// is the paper's citation key, else one made from author, year and title,
// made unique within the export.
func (l *Library) BibEntries(ctx context.Context, ids []int64) ([]bibtex.Entry, error) {
	refs, err := l.store.Refs(ctx)
	if err != nil {
		return nil, err
	}
	edits, err := l.store.EditedPaths(ctx)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	done := map[int64]bool{}
	var out []bibtex.Entry
	for _, id := range ids {
		if done[id] {
			continue
		}
		done[id] = true
		pi, err := l.store.PaperByID(ctx, id)
		if papertree.ErrorCode(err) == papertree.ENotFound {
			continue // removed from the library since
		}
		if err != nil {
			return nil, err
		}
		p := applyRef(pi, refs[pi.Path], pi.IndexedAt, edits[pi.Path])
		// No title was read (a cover sheet, a scan without a text layer):
		// the entry is titled by its file, as the library list shows it,
		// and a note says so, instead of an entry no citation can show.
		note := ""
		if strings.TrimSpace(p.Title) == "" {
			p.Title = strings.TrimSuffix(filepath.Base(p.Path), filepath.Ext(p.Path))
			note = "Title not found in the PDF: this is the file name (correct it with Edit details)"
		}
		key := p.CitationKey
		if key == "" {
			key = bibtex.Key(p.Authors, p.Year, p.Title)
		}
		base := key
		for n := 0; used[strings.ToLower(key)]; n++ {
			key = base + string(rune('a'+n%26))
			if n >= 26 {
				key = fmt.Sprintf("%s%d", base, n)
			}
		}
		used[strings.ToLower(key)] = true
		e := bibtex.Entry{Type: "misc", Key: key, Fields: map[string]string{
			"title": bibtex.Escape(p.Title), "author": bibtex.Escape(strings.Join(p.Authors, " and ")),
			"doi": bibtex.Escape(p.DOI), "file": bibtex.Escape(":" + strings.NewReplacer(`\`, `\\`, ":", `\:`, ";", `\;`).Replace(p.Path) + ":PDF"),
		}}
		if p.Year > 0 {
			e.Fields["year"] = fmt.Sprint(p.Year)
		}
		if note != "" {
			e.Fields["note"] = note
		}
		if p.Venue != "" {
			v := strings.ToLower(p.Venue)
			if strings.Contains(v, "proc") || strings.Contains(v, "conference") || strings.Contains(v, "workshop") || strings.Contains(v, "symposium") {
				e.Type, e.Fields["booktitle"] = "inproceedings", bibtex.Escape(p.Venue)
			} else {
				e.Type, e.Fields["journal"] = "article", bibtex.Escape(p.Venue)
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// BibTeX writes papers (in the order given, each once) as a .bib file: the
// entries of BibEntries, so the researcher's corrections win over the
// reference manager's metadata, which wins over the PDF's, and keys come
// from Zotero or BibTeX when known. It returns the file and how many
// entries it holds; papers removed from the library since are left out (0
// entries: the caller says why there is nothing to write). The CLI's
// `export --format bib` and the app's BibTeX exports both write with it.
func (l *Library) BibTeX(ctx context.Context, ids []int64) ([]byte, int, error) {
	entries, err := l.BibEntries(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	var buf bytes.Buffer
	bibtex.Write(&buf, entries)
	return buf.Bytes(), len(entries), nil
}

// CitedByAnswers returns the papers the answers cite, in order of first
// citation (see CitedPaperIDs), each once.
func CitedByAnswers(answers []papertree.Answer) []int64 {
	var ids []int64
	seen := map[int64]bool{}
	for _, a := range answers {
		for _, id := range CitedPaperIDs(a) {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// CitedPaperIDs returns the papers an answer cites, in order of first
// citation: the evidence its [n] markers point at, or all of its evidence
// when the text has no markers.
func CitedPaperIDs(a papertree.Answer) []int64 {
	var ids []int64
	seen := map[int64]bool{}
	add := func(i int) {
		if i >= 1 && i <= len(a.Evidence) {
			if id := a.Evidence[i-1].PaperID; id != 0 && !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	for _, m := range citeRe.FindAllStringSubmatch(a.Text, -1) {
		for _, n := range strings.Split(m[1], ",") {
			var i int
			if _, err := fmt.Sscanf(strings.TrimSpace(n), "%d", &i); err == nil {
				add(i)
			}
		}
	}
	if len(ids) == 0 {
		for i := range a.Evidence {
			add(i + 1)
		}
	}
	return ids
}

var citeRe = regexp.MustCompile(`\[(\d+(?:\s*,\s*\d+)*)\]`)
