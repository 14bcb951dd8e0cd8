package pdf

import (
	"fmt"
	"strings"
	"testing"
)

const prose = "Two neural mechanisms are described which exhibit recognition of forms. Both are independent of " +
	"small perturbations at synapses of excitation, threshold, and synchrony, and are referred to particular " +
	"appropriate regions of the nervous system, thus suggesting experimental verification of the model."

// layerRuns makes one run per word; invisible marks an OCR layer.
func layerRuns(text string, invisible bool) []Run {
	var rs []Run
	for i, w := range strings.Fields(text) {
		rs = append(rs, Run{Text: w, Font: "Times", Size: 10, X: float64(72 + 30*(i%14)), Y: float64(100 + 12*(i/14)), W: 25, Invisible: invisible})
	}
	return rs
}

func TestMeasureLayerPoor(t *testing.T) {
	tests := []struct {
		name string
		text string
		poor bool
	}{
		{"clean prose", prose, false},
		{"prose with a few OCR slips", strings.Replace(strings.Replace(prose, "forms", "f0rms", 1), "model", "rnodel", 1), false},
		{"letter-spaced words", "H O W W E K N O W U N I V E R S A L S the perception of auditory and visual forms " +
			"W A L T E R P I T T S and W A R R E N M C C U L L O C H department of psychiatry", true},
		{"garbage words", strings.Repeat("OWHWTMV OMNICTIOH tbe rnxkt qzwrtl ;iI1l zzkq 4f8e Th3 ", 4), true},
		{"digits and symbols inside words", strings.Repeat("th3 m0de1 0f f@rms w1th s|gnals at $ynapses ", 4), true},
		{"too few words to judge", "OWHWTMV OMNICTIOH", false},
		{"numbers of a table", strings.Repeat("12.5 0.87 (3) 1947 9, 128 ", 6), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := MeasureLayer(Page{Runs: layerRuns(tc.text, true)})
			if l.Poor() != tc.poor {
				t.Errorf("%+v: poor = %v, want %v", l, l.Poor(), tc.poor)
			}
		})
	}
}

func TestPlanOCR(t *testing.T) {
	garbage := strings.Repeat("OWHWTMV OMNICTIOH tbe rnxkt qzwrtl ;iI1l zzkq 4f8e Th3 ", 4)
	page := func(n int, text string, invisible bool) Page {
		return Page{Number: n, Width: 612, Height: 792, Runs: layerRuns(text, invisible)}
	}
	tests := []struct {
		name  string
		doc   Document
		empty []int
		poor  []int
	}{
		{"image only", Document{Pages: []Page{page(1, "", false), page(2, "", false)}}, []int{1, 2}, nil},
		{"born-digital", Document{Pages: []Page{page(1, prose, false), page(2, prose, false)}}, nil, nil},
		// Formulas or another script measure like noise but are the best
		// text there is: a visible layer is never re-read.
		{"born-digital noisy page", Document{Pages: []Page{page(1, prose, false), page(2, garbage, false)}}, nil, nil},
		{"born-digital with a full-page figure", Document{Pages: []Page{page(1, prose, false), page(2, "", false), page(3, prose, false)}}, nil, nil},
		{"OCR layer, one poor page", Document{Pages: []Page{page(1, prose, true), page(2, garbage, true), page(3, prose, true)}}, nil, []int{2}},
		{"OCR layer, mostly poor: all re-read", Document{Pages: []Page{page(1, prose, true), page(2, garbage, true), page(3, garbage, true)}}, nil, []int{1, 2, 3}},
		{"OCR layer with a page the scanner skipped", Document{Pages: []Page{page(1, prose, true), page(2, "", false)}}, []int{2}, nil},
		{"garbled fonts", Document{Garbled: true, Pages: []Page{page(1, prose, false), page(2, prose, false)}}, nil, []int{1, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := PlanOCR(&tc.doc)
			if fmt.Sprint(p.Empty) != fmt.Sprint(tc.empty) || fmt.Sprint(p.Poor) != fmt.Sprint(tc.poor) {
				t.Errorf("plan empty %v poor %v, want %v %v", p.Empty, p.Poor, tc.empty, tc.poor)
			}
		})
	}
}
