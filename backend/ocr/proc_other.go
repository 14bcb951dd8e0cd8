//go:build !unix

package ocr

import "os/exec"

// ownGroup: without process groups, cancellation kills the child itself
// (exec.CommandContext's default).
func ownGroup(cmd *exec.Cmd) {}
