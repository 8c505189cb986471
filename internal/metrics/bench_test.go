package metrics

import (
	"testing"
	"time"
)

// The per-turn cost of recording: a generation, an env step and a turn.
func BenchmarkRecordTurn(b *testing.B) {
	m, err := New()
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	b.ReportAllocs()
	for b.Loop() {
		m.Generated("job", "game:GuessTheNumber-v0-hard", 30*time.Millisecond, 120, 16)
		m.Stepped("job", "game:GuessTheNumber-v0-hard", 50*time.Microsecond)
		m.Turns("job", "game:GuessTheNumber-v0-hard", 1)
	}
}
