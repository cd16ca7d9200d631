// Package onboarding is the learner's path to the session: the key, the
// access date, acces.md, then the checklist. It talks to the person only
// through a Prompter and plain streams, so the whole flow runs in tests
// without a terminal and the prompt library can be swapped in one file.
package onboarding

import "errors"

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
