package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestCancelNeverInterruptsAStatement: the library's driver never calls
// sqlite3_interrupt (which crashes sqlite-vec when it lands while vec0
// prepares a statement of its own, see driverName): a statement already
// running when its context is cancelled runs to its end, and one started
// afterwards is refused with the context's error before it reaches SQLite.
// The plain go-sqlite3 driver, for contrast, interrupts the same statement.
// TestCorrectionCancelledMidWrite (library) is the end-to-end check: with
// the plain driver it died with SIGSEGV in 3 of 120 runs.
func TestCancelNeverInterruptsAStatement(t *testing.T) {
	// About a tenth of a second of work (more under load) in SQLite, long enough for the cancel to land.
	const slow = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT count(*) FROM c`
	for _, tc := range []struct {
		name        string
		driver      string
		interrupted bool
	}{
		{"library driver", driverName, false},
		{"plain go-sqlite3", "sqlite3", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := sql.Open(tc.driver, "file:"+filepath.Join(t.TempDir(), "x.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				time.Sleep(20 * time.Millisecond)
				cancel()
			}()
			var n int64
			err = db.QueryRowContext(ctx, slow).Scan(&n)
			if tc.interrupted {
				if err == nil {
					t.Fatalf("the plain driver finished (%d) instead of being interrupted: the contrast proves nothing", n)
				}
				return
			}
			if err != nil || n != 2000000 {
				t.Fatalf("a statement running at the cancel: %d, %v; want it run to its end", n, err)
			}
			if _, err := db.ExecContext(ctx, `CREATE TABLE t(x)`); !errors.Is(err, context.Canceled) {
				t.Fatalf("a statement started after the cancel: %v, want context.Canceled", err)
			}
			if _, err := db.BeginTx(ctx, nil); !errors.Is(err, context.Canceled) {
				t.Fatalf("a transaction begun after the cancel: %v, want context.Canceled", err)
			}
		})
	}
}
