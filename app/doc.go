// Package app is the desktop shell's service layer and the ONLY package that
// imports Wails.
//
// Data flow: the frontend calls the methods bound on App (each returns
// (T, error)); App validates input, turns it into calls on the Library facade
// (implemented by backend/library) and turns the results into small view types
// that the generated TypeScript bindings mirror. Long work (indexing a folder)
// runs as a job: one at a time, cancellable, with throttled progress events.
//
// Invariants:
//   - Everything that touches the Wails runtime goes through the Runtime
//     interface, so App is unit-testable without a window.
//   - Errors leave App as *papertree.Error; FormatError turns them into
//     ErrorView{code, message}, sent as a JSON string (the Wails runtime
//     wraps the rejection in `new Error(...)`, which keeps only strings), so
//     no Go internals or stack traces ever reach the UI.
//   - backend/ never imports this package (the CLI must not link Wails); the
//     Library interface is defined here, in app's own view types, and an
//     adapter maps backend/library onto it.
package app
