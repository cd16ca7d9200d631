package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/textfold"
)

// pret's flags refuse a value as it is read, in French (flagError); their
// Type is "string" so that pflag quotes defaults in the help.

// checkedValue is a string flag whose values check refuses.
type checkedValue struct {
	p     *string
	check func(string) error
}

func (v *checkedValue) String() string { return *v.p }
func (v *checkedValue) Type() string   { return "string" }
func (v *checkedValue) Set(s string) error {
	if err := v.check(s); err != nil {
		return err
	}
	*v.p = s
	return nil
}

// pathFlag adds a flag that takes a path: not empty, no control character.
func pathFlag(fs *pflag.FlagSet, p *string, name, usage string) {
	fs.Var(&checkedValue{p: p, check: func(s string) error {
		if s == "" {
			return errors.New("chemin vide")
		}
		return checkText(s)
	}}, name, usage)
}

// choiceValue takes one of choices, folded, kept in canonical spelling.
type choiceValue struct {
	p       *string
	what    string // what the word names in the error: "format", "statut"
	choices []string
}

func (v *choiceValue) String() string { return *v.p }
func (v *choiceValue) Type() string   { return "string" }
func (v *choiceValue) Set(s string) error {
	for _, c := range v.choices {
		if textfold.Fold(strings.TrimSpace(s)) == textfold.Fold(c) {
			*v.p = c
			return nil
		}
	}
	return fmt.Errorf("%s inconnu ; attendu : %s", v.what, frenchList(v.choices))
}

// choiceFlag adds a choiceValue flag to c, completed by the shells.
func choiceFlag(c *cobra.Command, p *string, name, def, what string, choices []string, usage string) {
	*p = def
	c.Flags().Var(&choiceValue{p: p, what: what, choices: choices}, name, usage)
	// Fails only for an unknown flag or a second registration.
	_ = c.RegisterFlagCompletionFunc(name, func(_ *cobra.Command, _ []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var words []cobra.Completion
		for _, w := range choices {
			if strings.HasPrefix(w, typed) {
				words = append(words, w)
			}
		}
		return words, cobra.ShellCompDirectiveNoFileComp
	})
}

// checkTypedDay checks the form of a typed date; a refusal depending on
// today or the session waits for the command's own Parse.
func checkTypedDay(s string) error {
	if err := checkText(s); err != nil {
		return err
	}
	var de *dates.Error
	if _, err := dates.Parse(s, dates.Context{}); errors.As(err, &de) && !de.Contextual {
		return errors.New(de.Reason)
	} else if err != nil && de == nil {
		return err
	}
	return nil
}

func frenchList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " ou " + words[len(words)-1]
}
