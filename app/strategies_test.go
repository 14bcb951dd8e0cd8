package app

import "testing"

func TestStrategyDescriptionsInSettingsView(t *testing.T) {
	m := addStrategyDescriptions(map[string]string{"retrieval.budget": "x"})
	for _, n := range []string{"auto", "pt-rag", "naive", "rdr2", "disretrieval"} {
		if m["strategy."+n] == "" {
			t.Errorf("no description for %s", n)
		}
	}
	if m["retrieval.budget"] != "x" {
		t.Error("settings descriptions lost")
	}
}
