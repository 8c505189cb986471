package mcp

import (
	"os/exec"
	"syscall"
)

// setProcAttr puts a stdio server in its own process group, so closing the
// session can kill everything it started, kills it if the worker dies, and
// with u runs it as that user with no supplementary groups (dropping from
// root to u clears the permitted, effective and ambient capabilities; none
// are raised).
func setProcAttr(cmd *exec.Cmd, u *User) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if u != nil {
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(u.UID), Gid: uint32(u.GID), Groups: []uint32{}}
	}
}

// killGroup kills the process group led by pid (the server and any children
// it left behind). A group that is already gone is fine.
func killGroup(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}
