package onboarding

import "fmt"

// Exit codes of cli.md.
const (
	ExitOK          = 0
	ExitRefused     = 1
	ExitUsage       = 2
	ExitInterrupted = 130
)

// Error is a failure the person can act on: what went wrong, what to do
// next, and the exit code of cli.md.
type Error struct {
	Code int
	Msg  string
	Hint string
	Err  error
}

func (e *Error) Error() string {
	if e.Err != nil && e.Msg == "" {
		return e.Err.Error()
	}
	return e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

func refused(hint string, format string, args ...any) *Error {
	return &Error{Code: ExitRefused, Msg: fmt.Sprintf(format, args...), Hint: hint}
}
