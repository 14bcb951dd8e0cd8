package query

import (
	"reflect"
	"testing"
)

func TestSameAndExpand(t *testing.T) {
	iqr := [2][]string{{"iqr"}, {"interquartil", "rang"}}
	cases := []struct {
		name  string
		terms []string
		sent  []string
		want  []string
	}{
		{"long form asked, short form said", []string{"interquartil", "rang", "robust"}, []string{"affect", "iqr"},
			[]string{"affect", "iqr", "interquartil", "rang"}},
		{"short form asked, long form said", []string{"iqr", "robust"}, []string{"interquartil", "rang", "spread"},
			[]string{"interquartil", "rang", "spread", "iqr"}},
		{"part of the long form said", []string{"iqr"}, []string{"rang", "spread"}, []string{"rang", "spread"}},
		{"part of the long form asked", []string{"rang", "robust"}, []string{"iqr"}, []string{"iqr"}},
		{"both forms asked", []string{"iqr", "interquartil", "rang"}, []string{"iqr"}, []string{"iqr"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := (&Question{Terms: c.terms}).Same([][2][]string{iqr})
			sent := append([]string(nil), c.sent...)
			if got := q.Expand(sent); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Expand(%v) = %v, want %v", c.sent, got, c.want)
			}
			if !reflect.DeepEqual(sent, c.sent) {
				t.Errorf("Expand changed its argument: %v", sent)
			}
		})
	}
}
