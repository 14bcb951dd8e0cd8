package app

import "github.com/papertree/papertree/backend/retrieve"

// addStrategyDescriptions puts each strategy's one-line description into a
// settings view's descriptions under "strategy.<name>", so the ask view's
// strategy menu can show it without a new binding.
func addStrategyDescriptions(m map[string]string) map[string]string {
	for _, n := range retrieve.Names() {
		if s, err := retrieve.Get(n); err == nil {
			m["strategy."+n] = s.Description()
		}
	}
	return m
}
