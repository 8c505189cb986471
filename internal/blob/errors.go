package blob

import "errors"

// Reasons a store cannot be used. Preflight errors match one of them
// (errors.Is) when the cause is known, and S3 operation errors do too, so
// callers can tell configuration mistakes (never worth retrying) from
// outages.
var (
	// ErrNoBucket: the bucket named in the URL does not exist.
	ErrNoBucket = errors.New("bucket does not exist")
	// ErrCredentials: no credentials were found, or the store rejected them.
	ErrCredentials = errors.New("credentials missing or rejected")
	// ErrAccessDenied: the credentials are valid but lack a permission.
	ErrAccessDenied = errors.New("access denied")
	// ErrUnreachable: the endpoint did not answer.
	ErrUnreachable = errors.New("endpoint unreachable")
	// ErrNotWritable: the folder cannot be created or written.
	ErrNotWritable = errors.New("folder not writable")
)

// PreflightError is the one error Preflight returns: which location, what
// is wrong and what to do about it, in a single line.
type PreflightError struct {
	URL    string // the store's location, without secrets
	Reason error  // one of the Err* reasons above, or nil when unknown
	Msg    string // the problem and, in parentheses, the fix
	Err    error  // the underlying error
}

func (e *PreflightError) Error() string { return e.URL + ": " + e.Msg }

// Unwrap exposes both the reason and the underlying error to errors.Is/As.
func (e *PreflightError) Unwrap() []error {
	var errs []error
	if e.Reason != nil {
		errs = append(errs, e.Reason)
	}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}
