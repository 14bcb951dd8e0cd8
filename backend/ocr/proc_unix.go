//go:build unix

package ocr

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in its own process group and makes cancellation kill
// the whole group, so a child that forked (prlimit execs, tesseract may
// spawn helpers) never outlives the job.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
