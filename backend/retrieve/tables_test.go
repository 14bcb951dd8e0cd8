package retrieve

import (
	"reflect"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/query"
)

func TestTrimTableRows(t *testing.T) {
	header := []string{"Model", "MR", "SST-2"}
	rows := [][]string{{"CNN-rand", "76.1", "82.7"}, {"CNN-static", "81.0", "86.8"}, {"CNN-multichannel", "81.1", "88.1"}, {"RAE", "77.7", "82.4"}}
	text := papertree.FormatTable(header, rows)
	tests := []struct {
		name, question string
		budget         int
		want           [][]string
	}{
		{"whole table fits", "What accuracy does CNN-static reach on MR?", 500, rows},
		{"the asked row kept, as a table", "What accuracy does CNN-static reach on MR?", 18, [][]string{{"CNN-static", "81.0", "86.8"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := papertree.ParseTable(trimTableRows(text, query.Parse(tc.question), tc.budget))
			h, got := tb.Header, tb.Rows
			if !reflect.DeepEqual(h, header) || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("trimmed to %q %q, want %q %q", h, got, header, tc.want)
			}
		})
	}
}
