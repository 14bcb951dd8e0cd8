package store

import (
	"context"
	"database/sql"
	"database/sql/driver"

	"github.com/mattn/go-sqlite3"

	"github.com/papertree/papertree/backend/papertree"
)

// driverName is the database/sql driver every library connection uses:
// go-sqlite3 with statements that are never interrupted half-way.
//
// go-sqlite3 honours a cancelled context by calling sqlite3_interrupt on the
// connection while the statement runs. sqlite-vec (v0.1.6, the newest
// served) prepares its internal statements lazily inside vec0's xFilter and
// xUpdate; when the interrupt makes that prepare fail, its cleanup calls
// sqlite3_clear_bindings(NULL) and the process dies with SIGSEGV
// (vec0_get_chunk_position, reached from the trigger that deletes a paper's
// vector: a correction or re-index cancelled at the wrong moment crashed
// the app, TestCorrectionCancelledMidWrite, 3 of 120 runs). So a cancelled
// context is honoured between statements instead: a statement or query that
// starts after the cancellation returns ctx.Err() at once, one that started
// before runs to its end (the library's statements take milliseconds; the
// long waits of a question are LLM calls, which keep their own deadlines),
// and a transaction is rolled back by database/sql as before.
const driverName = "sqlite3-papertree"

// DriverName is driverName for code outside the store that opens a
// library file with database/sql (tests that damage one as an outside
// tool would): the full-text index's triggers call papertree_fts_text,
// which only this driver's connections have.
const DriverName = driverName

func init() {
	sql.Register(driverName, &uninterruptibleDriver{sqlite3.SQLiteDriver{ConnectHook: registerFunctions}})
}

// ftsTextFunc is the SQL function that rewrites a node's title or text into
// what the full-text index tokenizes (papertree.CJKIndexText: CJK runs
// become character bigrams, other text is returned unchanged). The FTS
// triggers and the index's content view (migrations/0015_cjk_fts.sql) call
// it, so every connection that writes or reads nodes must have it: it is
// registered on every connection of the library's driver. It is
// deterministic, so SQLite may use it in a view and a trigger.
const ftsTextFunc = "papertree_fts_text"

func registerFunctions(c *sqlite3.SQLiteConn) error {
	return c.RegisterFunc(ftsTextFunc, papertree.CJKIndexText, true)
}

type uninterruptibleDriver struct{ sqlite3.SQLiteDriver }

func (d *uninterruptibleDriver) Open(name string) (driver.Conn, error) {
	c, err := d.SQLiteDriver.Open(name)
	if err != nil {
		return nil, err
	}
	return &uninterruptibleConn{c.(*sqlite3.SQLiteConn)}, nil
}

type uninterruptibleConn struct{ *sqlite3.SQLiteConn }

func (c *uninterruptibleConn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return c.SQLiteConn.ExecContext(context.WithoutCancel(ctx), q, args)
}

func (c *uninterruptibleConn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return c.SQLiteConn.QueryContext(context.WithoutCancel(ctx), q, args)
}

func (c *uninterruptibleConn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st, err := c.SQLiteConn.PrepareContext(context.WithoutCancel(ctx), q)
	if err != nil {
		return nil, err
	}
	return &uninterruptibleStmt{st.(*sqlite3.SQLiteStmt)}, nil
}

func (c *uninterruptibleConn) Prepare(q string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), q)
}

func (c *uninterruptibleConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return c.SQLiteConn.BeginTx(context.WithoutCancel(ctx), opts)
}

type uninterruptibleStmt struct{ *sqlite3.SQLiteStmt }

func (s *uninterruptibleStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.SQLiteStmt.ExecContext(context.WithoutCancel(ctx), args)
}

func (s *uninterruptibleStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.SQLiteStmt.QueryContext(context.WithoutCancel(ctx), args)
}
