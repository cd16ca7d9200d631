// Package onboarding is the learner's path to the session: key, access
// date, acces.md, checklist. It talks to the person only through a
// Prompter and plain streams, so it runs in tests without a terminal.
package onboarding

import "errors"

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

// guarded runs f through guard (a signal waits for a write), if any.
func guarded(guard func(func() error) error, f func() error) error {
	if guard == nil {
		return f()
	}
	return guard(f)
}
