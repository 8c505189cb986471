package envs

// FreeText is implemented by envs whose actions are free text: any
// non-empty reply is well-formed (a message to a simulated customer), so only
// an empty action or a malformed structured part (a broken tool call) is a
// format error. The conformance suite then asks garbage for an observation
// and an in-bounds reward, not for a format flag.
type FreeText interface {
	FreeText() bool
}

// IsFreeText reports whether e (or an env it wraps) takes free-text actions.
func IsFreeText(e Env) bool {
	for e != nil {
		if f, ok := e.(FreeText); ok {
			return f.FreeText()
		}
		u, ok := e.(Unwrapper)
		if !ok {
			return false
		}
		e = u.Unwrap()
	}
	return false
}
