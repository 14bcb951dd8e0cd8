package report

import (
	"html/template"
	"io"
)

// HTML writes d as one self-contained page: inline CSS, no scripts, no
// external fonts, images or links other than in-page anchors. All text goes
// through html/template, which escapes it for its context, so hostile text in
// a PDF or an LLM answer is shown, never executed.
func HTML(w io.Writer, d Doc) error {
	return htmlTmpl.Execute(w, buildView(d))
}

var htmlTmpl = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="PaperTree">
<title>{{.Title}}</title>
<style>
* { box-sizing: border-box; }
body { margin: 0; background: #fff; color: #1d2330; font: 16px/1.55 -apple-system, "Segoe UI", "DejaVu Sans", "Noto Sans", Roboto, Helvetica, Arial, sans-serif; }
main { max-width: 46rem; margin: 0 auto; padding: 2.5rem 1.5rem 4rem; }
header.doc { border-bottom: 2px solid #1d2330; padding-bottom: .75rem; margin-bottom: 1.5rem; }
h1 { font-size: 1.7rem; line-height: 1.25; margin: 0 0 .3rem; }
.sub { color: #5d6778; font-size: .9rem; margin: 0; }
nav ol { padding-left: 1.4rem; margin: .4rem 0 0; }
nav a, .back { color: #2f5d9e; text-decoration: none; }
section.answer { border-top: 1px solid #dde2ea; padding-top: 1.25rem; margin-top: 2rem; }
h2 { font-size: 1.3rem; line-height: 1.3; margin: 0 0 .4rem; }
h2 .num { color: #5d6778; font-weight: normal; }
h3 { font-size: .8rem; letter-spacing: .06em; text-transform: uppercase; color: #5d6778; margin: 1.6rem 0 .6rem; }
.badge { display: inline-block; font-size: .75rem; font-weight: 600; padding: .1rem .5rem; border-radius: .7rem; background: #e4ecf7; color: #2f5d9e; }
.badge.extractive { background: #e7f3ea; color: #2d6a3e; }
.badge.notfound { background: #fbeedd; color: #9a5b00; }
.meta { color: #5d6778; font-size: .85rem; margin: 0 0 .2rem; }
.note { color: #5d6778; font-size: .85rem; font-style: italic; margin: 0 0 1rem; }
.text { white-space: pre-wrap; margin: 0 0 1rem; }
.notfound .text { border-left: 3px solid #9a5b00; padding-left: .8rem; }
a.cite { color: #2f5d9e; font-weight: 600; text-decoration: none; }
ol.sources { list-style: none; padding: 0; margin: 0; }
ol.sources li { margin: 0 0 1.1rem; }
.src-head { font-weight: 600; }
.src-head .n { color: #2f5d9e; margin-right: .35rem; }
.uncited { color: #5d6778; font-weight: normal; font-size: .8rem; }
.path { color: #5d6778; font-size: .85rem; margin: .1rem 0 .35rem; }
blockquote { margin: 0; padding: .55rem .9rem; background: #f4f6fa; border-left: 3px solid #2f5d9e; white-space: pre-wrap; font-size: .93rem; }
table.grid { border-collapse: collapse; font-size: .8rem; margin: .3rem 0 .8rem; }
table.grid th, table.grid td { border: 1px solid #dde2ea; padding: .15rem .45rem; text-align: left; }
table.grid caption { text-align: left; font-style: italic; color: #5d6778; padding-bottom: .2rem; }
table.grid th { background: #f3f5f8; font-weight: 600; }
table.kv { border-collapse: collapse; width: 100%; font-size: .85rem; }
table.kv th { text-align: left; font-weight: 600; color: #5d6778; width: 11rem; vertical-align: top; padding: .2rem .8rem .2rem 0; }
table.kv td { padding: .2rem 0; border-bottom: 1px solid #dde2ea; }
ol.bib { padding-left: 1.6rem; }
ol.bib li { margin: 0 0 .5rem; }
footer { margin-top: 3rem; color: #5d6778; font-size: .8rem; }
@media print { main { max-width: none; padding: 0; } section.answer { break-before: page; } section.answer:first-of-type { break-before: auto; } a { color: inherit; } }
</style>
</head>
<body>
<main>
<header class="doc">
<h1>{{.Title}}</h1>
<p class="sub">{{.Count}}{{if .Generated}} · generated {{.Generated}}{{end}} by PaperTree</p>
</header>
{{- if gt (len .Answers) 1}}
<nav aria-label="Questions">
<strong>Questions</strong>
<ol>
{{- range .Answers}}
<li><a href="#{{.Anchor}}">{{.Question}}</a></li>
{{- end}}
</ol>
</nav>
{{- end}}
{{- $many := gt (len .Answers) 1}}
{{- range .Answers}}
<section class="answer{{if .NotFound}} notfound{{end}}" id="{{.Anchor}}">
<h2>{{if $many}}<span class="num">{{.N}}.</span> {{end}}{{.Question}}</h2>
<p class="meta"><span class="badge{{if .NotFound}} notfound{{else if .Extract}} extractive{{end}}">{{.Kind}}</span>{{if .Date}} · {{.Date}}{{end}}</p>
<p class="note">{{.KindNote}}</p>
<p class="text">{{range .Text}}{{if .Ref}}<a class="cite" href="#{{.Anchor}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}{{else}}(empty answer){{end}}</p>
{{- if .Sources}}
<h3>Sources</h3>
<ol class="sources">
{{- range .Sources}}
<li id="{{.Anchor}}">
<div class="src-head"><span class="n">[{{.N}}]</span>{{.Paper}} <a class="back" href="#p{{.PaperRef}}" title="Bibliography entry">↓</a>{{if not .Cited}} <span class="uncited">retrieved, not cited</span>{{end}}</div>
<div class="path">{{.Path}}{{if .Pages}} · {{.Pages}}{{end}}{{if .Score}} · score {{.Score}}{{end}}</div>
{{if .Grid}}<table class="grid">{{if .Grid.Caption}}<caption>{{.Grid.Caption}}</caption>{{end}}{{if .Grid.Header}}<thead><tr>{{range .Grid.Header}}<th>{{.}}</th>{{end}}</tr></thead>{{end}}<tbody>{{range .Grid.Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>{{end}}</tbody></table>{{else}}<blockquote>{{.Excerpt}}</blockquote>{{end}}
</li>
{{- end}}
</ol>
{{- end}}
<h3>Settings and diagnostics</h3>
<table class="kv">
{{- range .Settings}}
<tr><th scope="row">{{.K}}</th><td>{{.V}}</td></tr>
{{- end}}
{{- range .Diag}}
<tr><th scope="row">{{.K}}</th><td>{{.V}}</td></tr>
{{- end}}
</table>
</section>
{{- end}}
{{- template "tables" .Tables}}
{{- if .Biblio}}
<section class="answer" id="bibliography">
<h2>Bibliography</h2>
<ol class="bib">
{{- range .Biblio}}
<li id="{{.Anchor}}">{{if .Authors}}{{.Authors}}{{if .Year}} ({{.Year}}){{end}}. {{else if .Year}}({{.Year}}). {{end}}<em>{{.Title}}</em>.{{if .Key}} <code class="citekey">[{{.Key}}]</code>{{end}}</li>
{{- end}}
</ol>
</section>
{{- end}}
<footer>Exported from PaperTree. Excerpts are quoted exactly as extracted from the PDFs; page numbers refer to the PDF files.</footer>
</main>
</body>
</html>
`))
