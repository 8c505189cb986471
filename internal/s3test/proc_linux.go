package s3test

import (
	"os/exec"
	"syscall"
)

// setPdeathsig makes the kernel kill the server if the test binary dies
// without running its cleanups (a timeout panic, a SIGKILL).
func setPdeathsig(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
