package library

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/llm"
	"github.com/papertree/papertree/backend/report"
	"github.com/papertree/papertree/backend/retrieve"
)

// echoKey is the API key of TestKeyNeverStored: used nowhere else, so any
// copy of it found was put there by this test's server.
const echoKey = "sk-echo-5f3a9c2e7b1d4086aa"

// echoing wraps a reply so that it carries the request's Authorization
// header and the bare key, as a logging proxy or a hostile server might:
// inside JSON objects as an extra field, in text as a sentence.
func echoing(base func(chatCall) reply) func(chatCall) reply {
	return func(c chatCall) reply {
		r := base(c)
		key := strings.TrimPrefix(c.Auth, "Bearer ")
		if strings.HasPrefix(r.content, "{") {
			r.content = `{"echo":"` + c.Auth + ` ` + key + `",` + r.content[1:]
		} else {
			r.content += " Authorization: " + c.Auth + " (key " + key + ")"
		}
		return r
	}
}

// TestKeyNeverStored runs indexing (segment summaries), the structures job
// (discourse summaries) and questions with several strategies against a
// server that echoes the API key in every reply, then looks for the key in
// every row of every table (compressed blobs decompressed), in the database
// files themselves, in the usage log and in exported reports.
func TestKeyNeverStored(t *testing.T) {
	ctx := context.Background()
	s := newLLMServer(t)
	s.key = echoKey
	for _, op := range []string{llm.OpSummary, llm.OpTitleRelevance, llm.OpEntities, llm.OpMultiDocRewrite, llm.OpAnswer} {
		s.set(op, echoing(defaultReply))
	}
	s.set(llm.OpDecompose, func(c chatCall) reply {
		q := questionRE.FindStringSubmatch(c.User)[1]
		b, _ := json.Marshal([]string{q + " " + strings.TrimPrefix(c.Auth, "Bearer ")})
		return reply{content: `{"subqueries":` + string(b) + `}`}
	})
	s.set(llm.OpDiscourseSummary, echoing(func(c chatCall) reply { return reply{content: "Summary of both parts."} }))
	s.set(llm.OpRoute, func(c chatCall) reply {
		for _, m := range subtreeLineRE.FindAllStringSubmatch(c.User, -1) {
			if len(strings.Fields(m[2])) > 8 {
				return reply{content: "[ANSWER] " + m[1] + ": " + c.Auth + " " + strings.TrimPrefix(c.Auth, "Bearer ")}
			}
		}
		return reply{content: "Cannot answer " + c.Auth}
	})
	dbPath := filepath.Join(t.TempDir(), "lib.db")
	l, err := Open(ctx, Config{DBPath: dbPath, LLM: s.config(), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	dir := t.TempDir()
	index(t, l, testPDF(t, dir, "a.pdf"), testPDF(t, dir, "b.pdf"))
	if sum, err := l.BuildDiscourseTrees(ctx, retrieve.DiscParams{}, nil); err != nil || sum.Summaries == 0 {
		t.Fatalf("structures: %+v %v", sum, err)
	}
	var answers []string
	doc := report.Doc{}
	for _, q := range []AskRequest{
		{Question: "How are headings and glyphs grouped?", Budget: 256, OnDelta: func(string) {}},
		{Question: "How are headings and glyphs grouped?", Strategy: "rdr2", Budget: 256},
		{Question: "How are headings and glyphs grouped?", Strategy: "disretrieval", Budget: 256},
		{Question: "What is the method of these papers?", PaperIDs: []int64{1, 2}, Budget: 256},
	} {
		a, err := l.Ask(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q.Strategy, err)
		}
		if a.Mode != "llm" && q.Strategy == "" {
			t.Errorf("%s: mode %s (fallbacks %q): the echo must be redacted, not refused", q.Strategy, a.Mode, a.Diag.Fallbacks)
		}
		b, _ := json.Marshal(a)
		answers = append(answers, string(b))
		doc.Answers = append(doc.Answers, *a)
	}
	calls := len(s.Calls())
	if calls < 10 {
		t.Fatalf("only %d LLM calls", calls)
	}
	var leaks []string
	check := func(where, text string) {
		if strings.Contains(text, echoKey) || strings.Contains(strings.ReplaceAll(text, `\`, ""), echoKey) {
			leaks = append(leaks, where)
		}
	}
	for i, a := range answers {
		check(fmt.Sprintf("answer %d as returned", i+1), a)
	}
	for _, f := range report.Formats() {
		var buf bytes.Buffer
		if err := report.Write(&buf, f, doc); err != nil {
			t.Fatalf("export %s: %v", f, err)
		}
		check("export "+f, buf.String())
	}
	st, _ := l.LLMStatus()
	b, _ := json.Marshal(st)
	check("LLM status", string(b))
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", "file:"+dbPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cells, redactedSeen := 0, false
	for _, table := range tables(t, db) {
		rows, err := db.Query(`SELECT * FROM "` + table + `"`)
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				cells++
				var text string
				switch x := v.(type) {
				case []byte:
					text = string(x) + "\n" + inflate(x)
				case string:
					text = x
				default:
					continue
				}
				redactedSeen = redactedSeen || strings.Contains(text, "[redacted]")
				check(table+"."+cols[i], text)
			}
		}
		rows.Close()
	}
	for _, f := range []string{dbPath, dbPath + "-wal"} {
		if raw, err := os.ReadFile(f); err == nil {
			check(filepath.Base(f), string(raw))
		}
	}
	t.Logf("%d LLM calls, %d cells of %d tables searched", calls, cells, len(tables(t, db)))
	if len(leaks) > 0 {
		t.Errorf("the API key is stored or shown in: %s", strings.Join(leaks, ", "))
	}
	if !redactedSeen {
		t.Error("no [redacted] anywhere: the echoed replies were not stored at all, so the test proves nothing")
	}
}

func tables(t *testing.T, db *sql.DB) []string {
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		out = append(out, n)
	}
	return out
}

// inflate returns b decompressed when it is gzip or raw deflate (the
// structures and signals blobs), else "".
func inflate(b []byte) string {
	if z, err := gzip.NewReader(bytes.NewReader(b)); err == nil {
		if out, err := io.ReadAll(io.LimitReader(z, 64<<20)); err == nil {
			return string(out)
		}
	}
	if out, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(b)), 64<<20)); err == nil {
		return string(out)
	}
	return ""
}
