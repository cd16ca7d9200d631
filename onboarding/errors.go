package onboarding

import "fmt"

// Error is a failure the person can act on: what went wrong, what to do.
type Error struct {
	Msg   string
	Hint  string
	Err   error
	Input bool // the fault is in what the person gave (a setting, a template)
}

func (e *Error) Error() string { return e.Msg }

func (e *Error) Unwrap() error { return e.Err }

func refused(hint string, format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...), Hint: hint}
}
