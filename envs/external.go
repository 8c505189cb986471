package envs

import "io"

// Replayer is implemented by envs whose state lives outside the Go value (a
// terminal task's shell and files in a sandbox on one worker). Quarry
// rebuilds such an env on another worker the way it rebuilds any env: a
// fresh instance, Reset with the episode's seed, then the accepted actions
// stepped again. For these envs that is best effort (a command with outside
// effects may come out differently), so the rebuilder brackets the
// re-applied steps with MarkReplay(true) and MarkReplay(false), and the env
// marks every later step's Info.Extra with "replayed": true and
// "replayed_turns": the number of steps it re-executed.
type Replayer interface {
	MarkReplay(replaying bool)
}

// MarkReplay calls MarkReplay on the Replayer inside e, looking through
// wrappers; it reports whether there was one.
func MarkReplay(e Env, replaying bool) bool {
	for e != nil {
		if r, ok := e.(Replayer); ok {
			r.MarkReplay(replaying)
			return true
		}
		u, ok := e.(Unwrapper)
		if !ok {
			return false
		}
		e = u.Unwrap()
	}
	return false
}

// Close releases what the env inside e holds outside the process (a
// terminal task's sandbox workspace), looking through wrappers for an
// io.Closer. Envs that hold nothing are not Closers; Close is then a no-op.
// A session cache that evicts an unfinished episode should call it.
func Close(e Env) error {
	for e != nil {
		if c, ok := e.(io.Closer); ok {
			return c.Close()
		}
		u, ok := e.(Unwrapper)
		if !ok {
			return nil
		}
		e = u.Unwrap()
	}
	return nil
}
