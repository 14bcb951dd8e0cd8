package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mattn/go-sqlite3"
)

// cancelFromSQL is called by the SQL function cancel_now() that the test
// drivers register: the statement itself cancels its context once it runs,
// so the cancel lands while SQLite executes it, whatever the machine's load.
var (
	cancelFromSQL  func()
	registerDriver sync.Once
)

func registerCancelDrivers() {
	registerDriver.Do(func() {
		hook := func(c *sqlite3.SQLiteConn) error {
			return c.RegisterFunc("cancel_now", func() int64 { cancelFromSQL(); return 1 }, false)
		}
		sql.Register("test-library-driver", &uninterruptibleDriver{sqlite3.SQLiteDriver{ConnectHook: hook}})
		sql.Register("test-plain-driver", &sqlite3.SQLiteDriver{ConnectHook: hook})
	})
}

// TestCancelNeverInterruptsAStatement: the library's driver never calls
// sqlite3_interrupt (which crashes sqlite-vec when it lands while vec0
// prepares a statement of its own, see driverName): a statement already
// running when its context is cancelled runs to its end, and one started
// afterwards is refused with the context's error before it reaches SQLite.
// The plain go-sqlite3 driver, for contrast, interrupts the same statement.
// The statement cancels its own context from its first row (cancel_now), so
// the test does not depend on timing: it failed under CI load when a timer
// cancelled the context before the statement had begun.
// TestCorrectionCancelledMidWrite (library) is the end-to-end check: with
// the plain driver it died with SIGSEGV in 3 of 120 runs.
func TestCancelNeverInterruptsAStatement(t *testing.T) {
	registerCancelDrivers()
	// A few tenths of a second of work in SQLite after the cancel, in one
	// step: long enough for the plain driver's interrupt to land.
	const rows = 5000000
	const slow = `CREATE TABLE r AS WITH RECURSIVE c(x) AS (SELECT cancel_now() UNION ALL SELECT x + 1 FROM c WHERE x < 5000000) SELECT count(*) AS n FROM c`
	for _, tc := range []struct {
		name        string
		driver      string
		interrupted bool
	}{
		{"library driver", "test-library-driver", false},
		{"plain go-sqlite3", "test-plain-driver", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := sql.Open(tc.driver, "file:"+filepath.Join(t.TempDir(), "x.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			db.SetMaxOpenConns(1)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cancelFromSQL = cancel
			_, err = db.ExecContext(ctx, slow)
			if ctx.Err() == nil {
				t.Fatal("cancel_now() never ran: the statement did not start")
			}
			var n int64
			counted := db.QueryRow(`SELECT n FROM r`).Scan(&n)
			if tc.interrupted {
				if err == nil {
					t.Fatalf("the plain driver finished (%d) instead of being interrupted: the contrast proves nothing", n)
				}
				return
			}
			if err != nil || counted != nil || n != rows {
				t.Fatalf("a statement running at the cancel: %v; table r: %d, %v; want it run to its end", err, n, counted)
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
