package mcp

import (
	"os/exec"
	"syscall"
)

// setProcAttr puts a stdio server in its own process group, so closing the
// session can kill everything it started, and kills it if the worker dies.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills the process group led by pid (the server and any children
// it left behind). A group that is already gone is fine.
func killGroup(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}
