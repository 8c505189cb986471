//go:build !linux

package mcp

import "os/exec"

// setProcAttr is a no-op where process groups are not used: only the server
// process itself is ended on Close.
func setProcAttr(*exec.Cmd) {}

func killGroup(int) {}
