// Package onboarding is the learner's path to the session: the key, the
// access date, acces.md, then the checklist. It talks to the person only
// through a Prompter and plain streams, so the whole flow runs in tests
// without a terminal and the prompt library can be swapped in one file.
package onboarding

import (
	"errors"
	"fmt"
)

// Prompter asks one question at a time. Implementations return
// ErrInterrupted when the person presses Ctrl-C.
type Prompter interface {
	// Password reads a secret without showing it.
	Password(message, help string) (string, error)
	// Select offers choices in French words and returns the index chosen.
	Select(message string, options []string, def int, help string) (int, error)
	// Input reads a line, offering def.
	Input(message, def, help string) (string, error)
}

// ErrInterrupted is Ctrl-C at a question.
var ErrInterrupted = errors.New("interrompu")

// askYesNo is a yes/no question as a choice of French words: survey's
// Confirm expects y/n, which the course's learner should not have to guess.
func askYesNo(p Prompter, message string, def bool, help string) (bool, error) {
	d := 1
	if def {
		d = 0
	}
	i, err := p.Select(message, []string{"Oui", "Non"}, d, help)
	return i == 0, err
}

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
