package main

import (
	"archive/zip"
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretsNeverStoredOrShown: an OpenAI-compatible server (in-test, the
// process boundary) accepts the key for the model list, then fails every
// chat call with a 500 whose body echoes the API key and the URL password.
// The answer falls back to extractive; neither secret may appear in what is
// printed, saved (answers, usage) or exported in any format.
func TestSecretsNeverStoredOrShown(t *testing.T) {
	const key = "sk-live-9f8e7d6c5b4a39281706f5e4"
	const pass = "pw-Zq7-very-secret"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+key {
			t.Errorf("%s: Authorization %q", r.URL.Path, r.Header.Get("Authorization"))
		}
		switch r.URL.Path {
		case "/v1/models":
			fmt.Fprint(w, `{"object":"list","data":[{"id":"chat-m"}]}`)
		default:
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprintf(w, `{"error":{"message":"upstream rejected Authorization: Bearer %s for http://alice:%s@%s (key %s)"}}`, key, pass, r.Host, key)
		}
	}))
	defer srv.Close()
	url := strings.Replace(srv.URL, "http://", "http://alice:"+pass+"@", 1) + "/v1"
	t.Setenv("PAPERTREE_API_KEY", key)

	dir := t.TempDir()
	copyFile(t, filepath.Join(fixtures, "twocolumn.pdf"), filepath.Join(dir, "a.pdf"))
	db := filepath.Join(dir, "lib.db")
	if _, errs, code := cli(t, "index", "--db", db, "--quiet", dir); code != 0 {
		t.Fatalf("index: %s", errs)
	}
	var shown strings.Builder
	llmArgs := []string{"--llm", "openai", "--llm-url", url, "--chat-model", "chat-m"}
	out, errs, code := cli(t, append([]string{"ask", "--db", db, "--json"}, append(llmArgs, "what is the method")...)...)
	if code != 0 {
		t.Fatalf("ask: %s", errs)
	}
	shown.WriteString(out + errs)
	var ans struct {
		ID   int64 `json:"answer_id"`
		Diag struct {
			Fallbacks []string `json:"fallbacks"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &ans); err != nil || ans.ID == 0 {
		t.Fatalf("answer: %v %s", err, out)
	}
	if len(ans.Diag.Fallbacks) == 0 || !strings.Contains(strings.Join(ans.Diag.Fallbacks, " "), "HTTP 500") {
		t.Fatalf("the server's failure is not reported: %v", ans.Diag.Fallbacks)
	}
	out, errs, _ = cli(t, append([]string{"ask", "--db", db}, append(llmArgs, "what is the method")...)...)
	shown.WriteString(out + errs)

	check := func(where string, b []byte) {
		t.Helper()
		for _, s := range []string{key, pass} {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s contains the secret %q", where, s)
			}
		}
	}
	check("terminal output", []byte(shown.String()))
	for _, f := range []string{"md", "html", "docx", "pdf"} {
		path := filepath.Join(dir, "report."+f)
		if _, errs, code := cli(t, "export", "--db", db, "--answer", fmt.Sprint(ans.ID), "--format", f, "--out", path); code != 0 {
			t.Fatalf("export %s: %s", f, errs)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		check("the "+f+" export", b)
		if f == "docx" {
			zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatal(err)
			}
			for _, zf := range zr.File {
				rc, _ := zf.Open()
				x, _ := io.ReadAll(rc)
				rc.Close()
				check("docx part "+zf.Name, x)
			}
		}
	}
	// Everything stored in the library file, table by table.
	raw, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, q := range []string{
		`SELECT question || answer || settings || diagnostics || model FROM answers`,
		`SELECT op || model || error FROM llm_usage`,
		`SELECT key || value FROM meta`,
	} {
		rows, err := raw.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for rows.Next() {
			var s string
			rows.Scan(&s)
			check(q, []byte(s))
		}
		rows.Close()
	}
}
