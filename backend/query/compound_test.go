package query

import (
	"fmt"
	"testing"
)

// The compounds of a factual question are the last two words of its noun
// phrases, as typed; verbs and participles after a noun phrase, the words
// after an infinitive's "to" and how/why or yes/no questions give none.
func TestCompounds(t *testing.T) {
	tests := []struct{ q, want string }{
		{"What radiation dosage is recommended for pediatric patients?", "[radiation dosage* pediatric patients]"},
		{"Which U-Net denoiser does the diffusion model use?", "[U-Net denoiser* diffusion model]"},
		{"What is the half-life of the tracer used for PET imaging?", "[PET imaging]"},
		{"Which reinforcement learning algorithm trains the robot arm to grasp objects?", "[learning algorithm* robot arm]"},
		{"Does extending the credit crunch model with durable goods overturn its baseline result?", "[]"},
		{"In the Raft paper, what range are election timeouts picked from?", "[]"},
		{"What F1 does CoType reach on extracting both entities and their relations?", "[]"},
		{"How was the encoder initialised in the tagging model?", "[]"},
		{"Why does a pure transformer on image patches trail ResNets?", "[]"},
	}
	for _, tc := range tests {
		p := Parse(tc.q)
		var got []string
		for _, c := range p.Compounds {
			s := c.Phrase()
			if c.Focus {
				s += "*"
			}
			got = append(got, s)
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("Compounds(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}
