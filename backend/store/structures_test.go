package store

import (
	"context"
	"testing"
	"time"
)

func TestStructuresLifecycle(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if _, err := s.EnsureEmbedder(ctx, "test", 8); err != nil {
		t.Fatal(err)
	}
	a, err := s.SavePaper(ctx, synthPaper("/a.pdf", 1, 2, 1, 2), synthVectors(synthPaper("/a.pdf", 1, 2, 1, 2), 8, 1), "fp")
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.SavePaper(ctx, synthPaper("/b.pdf", 2, 2, 1, 2), synthVectors(synthPaper("/b.pdf", 2, 2, 1, 2), 8, 2), "fp")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := s.LoadStructure(ctx, a, "discourse"); ok || err != nil {
		t.Fatalf("empty store: ok %v err %v", ok, err)
	}
	if err := s.SaveStructure(ctx, a, "discourse", "k1", []byte("one"), time.Second); err != nil {
		t.Fatal(err)
	}
	if key, data, ok, err := s.LoadStructure(ctx, a, "discourse"); !ok || err != nil || key != "k1" || string(data) != "one" {
		t.Fatalf("load: %q %q %v %v", key, data, ok, err)
	}
	// New settings replace the old row: one current structure per paper and kind.
	if err := s.SaveStructure(ctx, a, "discourse", "k2", []byte("two"), time.Second); err != nil {
		t.Fatal(err)
	}
	if key, data, _, _ := s.LoadStructure(ctx, a, "discourse"); key != "k2" || string(data) != "two" {
		t.Fatalf("replaced: %q %q", key, data)
	}
	st, err := s.StructureStats(ctx, "discourse")
	if err != nil || st.Papers != 1 || st.Bytes != 3 || st.BuildMS != 1000 {
		t.Fatalf("stats %+v %v", st, err)
	}
	missing, err := s.PapersWithoutStructure(ctx, "discourse", func(id int64, key string) bool { return key == "k2" })
	if err != nil || len(missing) != 1 || missing[0] != b {
		t.Fatalf("missing %v %v (want [%d])", missing, err, b)
	}
	missing, _ = s.PapersWithoutStructure(ctx, "discourse", func(id int64, key string) bool { return key == "k3" })
	if len(missing) != 2 {
		t.Fatalf("stale key not reported: %v", missing)
	}
	// A structure goes with its paper; saving for a removed paper is a no-op.
	if err := s.DeletePaper(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, _ := s.LoadStructure(ctx, a, "discourse"); ok {
		t.Fatal("structure survived its paper")
	}
	if err := s.SaveStructure(ctx, a, "discourse", "k2", []byte("late"), 0); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.StructureStats(ctx, "discourse"); st.Papers != 0 {
		t.Fatalf("structure saved for a removed paper: %+v", st)
	}
}
