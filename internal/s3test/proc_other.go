//go:build !linux

package s3test

import "os/exec"

// setPdeathsig has no portable equivalent; t.Cleanup still stops the server.
func setPdeathsig(*exec.Cmd) {}
