package main

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/pflag"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/keys"
)

// pret's flags take typed values: a value is refused while the command
// line is read, with a French reason, so that every flag error goes
// through pflag's InvalidValueError and flagError (errors.go).
//
// Their Type is "string" on purpose: pflag quotes string defaults in the
// help, and cobra/doc in the manual pages; the type name is never shown,
// since every usage names its value with backquotes.

// checkedValue is a string flag whose values check refuses.
type checkedValue struct {
	p     *string
	check func(string) error
	// refused is a value this flag refuses; the flag walk test uses it.
	refused string
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

// refusedExample is what the flag walk test gives this flag.
func (v *checkedValue) refusedExample() string { return v.refused }

// stringFlag adds a flag that takes free text: no control character, so
// that nothing typed can drive the terminal when it is printed back.
func stringFlag(fs *pflag.FlagSet, p *string, name, def, usage string) {
	*p = def
	fs.Var(&checkedValue{p: p, check: checkText, refused: "rouge\x1b[31m"}, name, usage)
}

// pathFlag adds a flag that takes a path: not empty, no control character.
func pathFlag(fs *pflag.FlagSet, p *string, name, def, usage string) {
	*p = def
	fs.Var(&checkedValue{p: p, check: checkPath, refused: ""}, name, usage)
}

// choiceValue is a flag that takes one of a few words, compared without
// case or accents and kept in its canonical spelling.
type choiceValue struct {
	p       *string
	what    string // what the word names in the error: "format", "statut"
	choices []string
}

func (v *choiceValue) String() string { return *v.p }
func (v *choiceValue) Type() string   { return "string" }
func (v *choiceValue) Set(s string) error {
	for _, c := range v.choices {
		if checklist.Fold(strings.TrimSpace(s)) == checklist.Fold(c) {
			*v.p = c
			return nil
		}
	}
	return &valueError{fmt.Sprintf("%s inconnu ; attendu : %s", v.what, frenchList(v.choices))}
}
func (v *choiceValue) refusedExample() string { return "zzz" }

// choiceFlag adds a flag that takes one of choices.
func choiceFlag(fs *pflag.FlagSet, p *string, name, def, what string, choices []string, usage string) {
	*p = def
	fs.Var(&choiceValue{p: p, what: what, choices: choices}, name, usage)
}

func checkText(s string) error {
	for _, r := range s {
		if unicode.IsControl(r) {
			return &valueError{"caractère de contrôle refusé (une touche spéciale, un code de couleur)"}
		}
	}
	return nil
}

func checkPath(s string) error {
	if s == "" {
		return &valueError{"chemin vide"}
	}
	return checkText(s)
}

func checkDay(s string) error {
	if _, err := time.Parse("2006-01-02", strings.TrimSpace(s)); err != nil {
		return &valueError{"attendu : une date réelle AAAA-MM-JJ, par exemple 2026-11-05"}
	}
	return nil
}

// dateFlag adds a flag that takes a date as people type it (dates.Parse):
// the form is checked here, the day itself (today, not in the future)
// where the command knows today.
func dateFlag(fs *pflag.FlagSet, p *string, name, def, usage string) {
	*p = def
	fs.Var(&checkedValue{p: p, check: checkTypedDay, refused: "31/11/2026"}, name, usage)
}

func checkTypedDay(s string) error {
	if err := checkText(s); err != nil {
		return err
	}
	// Today and the session are not known yet: a refusal that depends on
	// them (dates.Error.Contextual) waits for the command's own Parse.
	if _, err := dates.Parse(s, dates.Context{}); err != nil {
		var de *dates.Error
		if !errors.As(err, &de) {
			return &valueError{err.Error()}
		}
		if !de.Contextual {
			return &valueError{de.Reason}
		}
	}
	return nil
}

func checkHour(s string) error {
	if _, err := time.Parse("15:04", s); err != nil {
		return &valueError{"attendu : une heure HH:MM, par exemple 09:30"}
	}
	return nil
}

func checkKeyName(s string) error {
	if s == "" || strings.ContainsAny(s, `/\`) || s == "." || s == ".." {
		return &valueError{"un nom de fichier seul est attendu, par exemple id_ed25519_romeo"}
	}
	if err := keys.CheckName(s); err != nil {
		return &valueError{err.Error()}
	}
	return checkText(s)
}

// frenchList is "a, b ou c".
func frenchList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " ou " + words[len(words)-1]
}
