//go:build linux

package clustertest

import (
	"os"
	"os/exec"
	"testing"
)

// A process tree's CPU includes descendants already reaped: PostgreSQL's
// backends come and go, and their time must not vanish from the split.
func TestTreeCPUCountsReapedChildren(t *testing.T) {
	self := os.Getpid()
	before, err := TreeCPU(self)
	if err != nil {
		t.Fatal(err)
	}
	child := exec.Command("sh", "-c", `i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done`)
	if err := child.Run(); err != nil {
		t.Fatal(err)
	}
	spent := child.ProcessState.UserTime() + child.ProcessState.SystemTime()
	after, err := TreeCPU(self)
	if err != nil {
		t.Fatal(err)
	}
	// /proc counts whole clock ticks, user and system time each rounded
	// down; rusage counts microseconds: up to two ticks apart.
	if got := after[self] - before[self]; got < spent-2*clockTick {
		t.Fatalf("tree CPU grew by %v, the reaped child alone used %v", got, spent)
	}
	if _, err := TreeCPU(1 << 30); err == nil {
		t.Fatal("TreeCPU of a pid that does not exist: no error")
	}
}

// The machine's busy time is read from /proc/stat and never goes down.
func TestMachineCPUNeverDecreases(t *testing.T) {
	a, err := MachineCPU()
	if err != nil {
		t.Fatal(err)
	}
	if a <= 0 {
		t.Fatalf("machine busy time %v", a)
	}
	b, err := MachineCPU()
	if err != nil {
		t.Fatal(err)
	}
	if b < a {
		t.Fatalf("machine busy time went from %v to %v", a, b)
	}
}
