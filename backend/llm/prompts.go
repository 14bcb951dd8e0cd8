package llm

import (
	"embed"
	"strings"
	"text/template"
)

//go:embed prompts/*.tmpl
var promptFS embed.FS

// prompts holds every template; each file defines "<op>.system" and
// "<op>.user". Parsing happens at init so a broken template fails every
// test, not a user's question.
var prompts = template.Must(template.New("").Funcs(template.FuncMap{
	"join": strings.Join,
	"add":  func(a, b int) int { return a + b },
}).ParseFS(promptFS, "prompts/*.tmpl"))

// render builds the system and user messages of a prompt.
func render(name string, data any) ([]Message, error) {
	var sys, user strings.Builder
	if err := prompts.ExecuteTemplate(&sys, name+".system", data); err != nil {
		return nil, err
	}
	if err := prompts.ExecuteTemplate(&user, name+".user", data); err != nil {
		return nil, err
	}
	return []Message{
		{Role: "system", Content: strings.TrimSpace(sys.String())},
		{Role: "user", Content: strings.TrimSpace(user.String())},
	}, nil
}
