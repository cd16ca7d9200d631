package onboarding

import "fmt"

// Error is a failure the person can act on: what went wrong and what to do
// next. onboarding never chooses an exit code: cmd/pret reads Input to
// tell a mistake in what was given (a template, a setting) from a refusal.
type Error struct {
	Msg  string
	Hint string
	Err  error
	// Input is true when the fault is in what the person gave pret (a
	// setting, a template), not in the state of their files.
	Input bool
}

func (e *Error) Error() string {
	if e.Err != nil && e.Msg == "" {
		return e.Err.Error()
	}
	return e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

func refused(hint string, format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// guarded runs f through guard, which makes a signal wait for a write to
// end; a nil guard runs f as it is.
func guarded(guard func(func() error) error, f func() error) error {
	if guard == nil {
		return f()
	}
	return guard(f)
}
