package llm

import (
	"sync"
	"time"
)

// Usage records every LLM and embedding call once, after it ends (also when
// it fails: err is then non-nil and the token counts may be zero). The store
// persists it; MemoryUsage keeps it for a session and for tests.
// Implementations must be safe for concurrent use and fast (they are called
// on the request path).
type Usage interface {
	Record(op, model string, promptTokens, completionTokens int, d time.Duration, err error)
}

type discardUsage struct{}

func (discardUsage) Record(string, string, int, int, time.Duration, error) {}

// UsageRecord is one recorded call.
type UsageRecord struct {
	Op               string        `json:"op"`
	Model            string        `json:"model"`
	PromptTokens     int           `json:"prompt_tokens"`
	CompletionTokens int           `json:"completion_tokens"`
	Duration         time.Duration `json:"duration"`
	Err              string        `json:"error,omitempty"`
}

// OpTotal sums the calls of one operation.
type OpTotal struct {
	Calls            int           `json:"calls"`
	Errors           int           `json:"errors"`
	PromptTokens     int           `json:"prompt_tokens"`
	CompletionTokens int           `json:"completion_tokens"`
	Duration         time.Duration `json:"duration"`
}

// MemoryUsage is an in-memory Usage. It keeps the last MaxRecords records
// (default 10000) and running totals of everything.
type MemoryUsage struct {
	MaxRecords int

	mu      sync.Mutex
	records []UsageRecord
	totals  map[string]OpTotal
}

// NewMemoryUsage returns an empty recorder.
func NewMemoryUsage() *MemoryUsage { return &MemoryUsage{} }

// Record implements Usage.
func (m *MemoryUsage) Record(op, model string, promptTokens, completionTokens int, d time.Duration, err error) {
	r := UsageRecord{Op: op, Model: model, PromptTokens: promptTokens, CompletionTokens: completionTokens, Duration: d}
	if err != nil {
		r.Err = err.Error()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	max := m.MaxRecords
	if max <= 0 {
		max = 10000
	}
	if len(m.records) >= max {
		m.records = append(m.records[:0], m.records[len(m.records)-max+1:]...)
	}
	m.records = append(m.records, r)
	if m.totals == nil {
		m.totals = map[string]OpTotal{}
	}
	t := m.totals[op]
	t.Calls++
	if err != nil {
		t.Errors++
	}
	t.PromptTokens += promptTokens
	t.CompletionTokens += completionTokens
	t.Duration += d
	m.totals[op] = t
}

// Records returns a copy of the kept records, oldest first.
func (m *MemoryUsage) Records() []UsageRecord {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]UsageRecord(nil), m.records...)
}

// Totals returns the totals per operation.
func (m *MemoryUsage) Totals() map[string]OpTotal {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]OpTotal, len(m.totals))
	for k, v := range m.totals {
		out[k] = v
	}
	return out
}
