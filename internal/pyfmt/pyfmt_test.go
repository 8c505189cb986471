package pyfmt

import "testing"

// Expected strings are what CPython's repr prints.
func TestFloat(t *testing.T) {
	for f, want := range map[float64]string{
		0: "0.0", 1: "1.0", -2.5: "-2.5", 0.1: "0.1", 1e16: "1e+16", 1.5e-05: "1.5e-05", 0.0001: "0.0001",
		123456789012345.6: "123456789012345.6", 1e15: "1000000000000000.0", -1.25e-7: "-1.25e-07", 3e100: "3e+100",
	} {
		if got := Float(f); got != want {
			t.Errorf("Float(%v) = %q, want %q", f, got, want)
		}
	}
}
