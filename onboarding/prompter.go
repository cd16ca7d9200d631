// Package onboarding is the learner's path to the session: key, access
// date, acces.md, checklist. It talks to the person only through a
// Prompter and plain streams, so it runs in tests without a terminal.
package onboarding

import (
	"errors"
	"fmt"
)

// Prompter asks one question at a time; Ctrl-C is ErrInterrupted.
type Prompter interface {
	Password(message, help string) (string, error)                              // a secret, never shown
	Select(message string, options []string, def int, help string) (int, error) // the index chosen
	Input(message, def, help string) (string, error)                            // a line, def offered
}

// ErrInterrupted is Ctrl-C at a question.
var ErrInterrupted = errors.New("interrompu")

// askYesNo offers French words: survey's Confirm expects y/n, which a learner should not guess.
func askYesNo(p Prompter, message string, def bool, help string) (bool, error) {
	d := 1
	if def {
		d = 0
	}
	i, err := p.Select(message, []string{"Oui", "Non"}, d, help)
	return i == 0, err
}

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

// guarded runs f through guard (a signal waits for a write), if any.
func guarded(guard func(func() error) error, f func() error) error {
	if guard == nil {
		return f()
	}
	return guard(f)
}
