//go:build !linux

package mcp

import "os/exec"

// setProcAttr is a no-op where process groups and credentials are not set:
// only the server process itself is ended on Close, and it runs as the
// worker's user.
func setProcAttr(*exec.Cmd, *User) {}

func killGroup(int) {}
