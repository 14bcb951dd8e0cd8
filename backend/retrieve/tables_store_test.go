package retrieve_test

import (
	"context"
	"strings"
	"testing"

	"github.com/papertree/papertree/backend/papertree"
	"github.com/papertree/papertree/backend/retrieve"
)

// vitPaper holds a long table as the tree builder stores it - one leaf per
// part, each repeating the caption and the header - in a section with no
// title (the builder's section for what follows a reference list).
func vitPaper() *papertree.Paper {
	const caption = "Table 3: Hyperparameters for training. All models are trained with a batch size of 4096 and learning rate warmup of 10k steps. For ImageNet we found it beneficial to additionally apply gradient clipping at global norm 1."
	header := []string{"Models", "Dataset", "Epochs", "Base LR", "LR decay", "Weight decay", "Dropout"}
	rows := [][]string{
		{"ViT-B/16", "JFT-300M", "7", "8e-4", "linear", "0.1", "0.0"},
		{"ViT-L/32", "JFT-300M", "7", "6e-4", "linear", "0.1", "0.0"},
		{"ViT-L/16", "JFT-300M", "7/14", "4e-4", "linear", "0.1", "0.0"},
		{"ViT-H/14", "JFT-300M", "14", "3e-4", "linear", "0.1", "0.0"},
		{"ViT-B/16", "ImageNet-21k", "90", "1e-3", "linear", "0.03", "0.1"},
		{"ViT-*", "ImageNet", "300", "3e-3", "cosine", "0.3", "0.1"},
	}
	var parts []*papertree.Node
	for _, r := range rows {
		txt := papertree.Table{Caption: caption, Header: header, Rows: [][]string{r}}.Format()
		n := seg(txt)
		n.Role = papertree.RoleTable
		parts = append(parts, n)
	}
	refs := sec("References",
		seg("Alexey Dosovitskiy, Lucas Beyer, and Neil Houlsby. An image is worth 16x16 words. In ICLR, 2021."),
		seg("Diederik P. Kingma and Jimmy Ba. Adam: A method for stochastic optimization. In ICLR, 2015."))
	refs.Role = papertree.RoleReferences
	untitled := sec("", parts...)
	root := &papertree.Node{Kind: papertree.KindRoot, Title: "Vision Transformers at Scale", Children: []*papertree.Node{
		sec("1 Introduction", seg("We apply a standard Transformer directly to images, split into patches, with the fewest possible modifications.")),
		sec("4 Experiments",
			seg("Training & Fine-tuning. We train all models, including ResNets, using Adam with beta1 = 0.9, beta2 = 0.999, a batch size of 4096 and apply a high weight decay of 0.1, which we found to be useful for transfer of all models."),
			seg("We fine-tune all models using SGD with momentum and a batch size of 512 at a higher resolution.")),
		refs,
		untitled,
	}}
	return &papertree.Paper{Title: "Vision Transformers at Scale", Path: "/vit.pdf", Pages: 14, Root: root}
}

func TestSplitTableIsOneEvidenceItem(t *testing.T) {
	ix, ids := setup(t, vitPaper())
	tests := []struct {
		name, strategy, question string
	}{
		{"pt-rag, the hyperparameters asked", "pt-rag", "What batch size and weight decay were used for pre-training?"},
		{"auto, one model's row asked", "auto", "Which learning rate decay does ViT-H/14 use, and for how many epochs?"},
		{"structrag", "structrag", "What weight decay do the ViT models use?"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := retrieve.Get(tc.strategy)
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.Retrieve(context.Background(), ix, retrieve.Request{Query: tc.question, PaperIDs: ids, Budget: 512, Params: retrieve.DefaultParams()})
			if err != nil {
				t.Fatal(err)
			}
			tables, used := 0, 0
			for _, e := range res.Evidence {
				used += e.Tokens
				for i, p := range e.Path {
					if strings.TrimSpace(p) == "" {
						t.Errorf("evidence %d: empty segment %d in path %q", e.NodeID, i, e.Path)
					}
				}
				if len(e.Path) != len(e.PathIDs) {
					t.Errorf("path %q and ids %v differ in length", e.Path, e.PathIDs)
				}
				if e.Role != papertree.RoleTable {
					continue
				}
				tables++
				tb := papertree.ParseTable(e.Text)
				if n := strings.Count(e.Text, "Table 3:"); n != 1 || len(tb.Header) == 0 || len(tb.Rows) == 0 {
					t.Errorf("table item holds the caption %d times, header %q, rows %q", n, tb.Header, tb.Rows)
				}
				if e.Tokens != papertree.CountTokens(e.Text) {
					t.Errorf("table costed %d tokens for %d", e.Tokens, papertree.CountTokens(e.Text))
				}
				if last := e.Path[len(e.Path)-1]; last != "Table 3" {
					t.Errorf("table path ends in %q, want the table's label", last)
				}
			}
			if tables != 1 {
				t.Errorf("%d table items, want the table once: %v", tables, res.Evidence)
			}
			if used > 512 {
				t.Errorf("%d tokens used, budget 512", used)
			}
		})
	}
}
