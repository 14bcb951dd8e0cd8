package pdf

import "testing"

// TestReadableLine: titles and headings as printed read as language; text a
// scanner's OCR made of formulas, stamps and list rows does not.
func TestReadableLine(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want bool
	}{
		{"plain title", "Attention Is All You Need", true},
		{"info title of a 1948 scan", "On the attraction between two perfectly conducting plates", true},
		{"model name and year-like number", "GPT-4 Technical Report", true},
		{"acronym and single-letter article", "LSTM: A Search Space Odyssey", true},
		{"mixed-case product name", "XGBoost: A Scalable Tree Boosting System", true},
		{"capitals", "ON COMPUTABLE NUMBERS, WITH AN APPLICATION TO THE ENTSCHEIDUNGSPROBLEM", true},
		{"one word in capitals", "COMPUTATIONS", true},
		{"Spanish with a year range", "Relación entre la desigualdad y los homicidios en Ecuador durante el período 2014-2024", true},
		{"German", "Über die Grundlagen der Geometrie", true},
		{"Chinese", "深度学习综述", true},
		{"Russian", "О вычислимых числах", true},
		{"Greek letters in a title", "β-VAE: Learning Basic Visual Concepts", true},
		{"year glued to a name in brackets", "Replication of Aiyagari(1994)", true},
		{"formula read by OCR", "dE=- 'in23 hC~RI~2.", false},
		{"routing list row with a stamp", "18 - &. A. Schelkunoff pop ma a]", false},
		{"page range", "504 504..507", false},
		{"symbols only", "§ ¶ † ‡ * *", false},
		{"digits and letters mixed", "x3Qz 7Hk2 9pL0", false},
		{"empty", "", false},
		{"spaces only", "   ", false},
		{"initials only", "A. B. C.", false},
		{"garbled type 3 codes", "132547698\"2;:=<?>47@A", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ReadableLine(c.in); got != c.want {
				t.Errorf("ReadableLine(%q) = %v, want %v", c.in, got, c.want)
			}
		})
	}
}
