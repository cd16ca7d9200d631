package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/onboarding"
)

// Exit codes (cli.md): exitCode alone turns an error into one.
const (
	exitOK          = 0
	exitFailed      = 1 // a check failed, an action was refused, or something unexpected broke
	exitUsage       = 2 // the command line or the configuration is wrong
	exitInterrupted = 130
	exitTerminated  = 143 // SIGTERM: 128 + 15
)

// usageError is exit 2: the command line or the configuration is wrong.
func usageError(hint, format string, args ...any) error {
	return &onboarding.Error{Msg: fmt.Sprintf(format, args...), Hint: hint, Input: true}
}

// refusedError is exit 1: pret understood and says no, or a check failed.
func refusedError(hint, format string, args ...any) error {
	return &onboarding.Error{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// silentExit carries an exit code whose reason was already printed.
type silentExit struct{ code int }

func (s *silentExit) Error() string { return fmt.Sprintf("code de sortie %d", s.code) }

// exitCode reports err on stderr as cli.md says, and picks the code.
func exitCode(err error, stderr io.Writer) int {
	var (
		silent *silentExit
		failed *onboarding.Error
	)
	msg, hint, code := "", "", exitFailed
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &silent):
		return silent.code
	case errors.Is(err, onboarding.ErrInterrupted), errors.Is(err, context.Canceled):
		msg, code = "interrompu ; aucun fichier n'a été laissé à moitié écrit", exitInterrupted
	case errors.As(err, &failed):
		msg, hint = failed.Error(), failed.Hint
		if failed.Input {
			code = exitUsage
		}
	default:
		// Not foreseen: not the person's mistake, so never exit 2.
		msg = describeError(err)
	}
	fmt.Fprintf(stderr, "pret: erreur : %s\n", checklist.Escape(msg))
	if hint != "" {
		fmt.Fprintf(stderr, "pret: conseil : %s\n", checklist.Escape(hint))
	}
	return code
}

// describeError says an unforeseen error in French, by safefile.Reason.
func describeError(err error) string {
	var (
		fe    *safefile.Error
		pe    *fs.PathError
		le    *os.LinkError
		errno syscall.Errno
	)
	switch {
	case errors.As(err, &fe):
		return fe.Error()
	case errors.As(err, &pe):
		return fmt.Sprintf("%s : %s", pe.Path, safefile.Reason(pe.Err))
	case errors.As(err, &le):
		return fmt.Sprintf("%s → %s : %s", le.Old, le.New, safefile.Reason(le.Err))
	case errors.As(err, &errno):
		return safefile.Reason(err)
	}
	return err.Error()
}

// flagError is cobra's FlagErrorFunc: pflag's typed errors in French.
func flagError(c *cobra.Command, err error) error {
	hint := fmt.Sprintf("« %s --help » liste les options", c.CommandPath())
	var (
		notExist *pflag.NotExistError
		noValue  *pflag.ValueRequiredError
		badValue *pflag.InvalidValueError
		syntax   *pflag.InvalidSyntaxError
	)
	switch {
	case errors.As(err, &notExist):
		if s := notExist.GetSpecifiedShortnames(); len(s) > 1 {
			return usageError(hint, "option courte inconnue : -%s (dans -%s)", notExist.GetSpecifiedName(), s)
		} else if s != "" {
			return usageError(hint, "option courte inconnue : -%s", s)
		}
		return usageError(didYouMean(suggestFlags(c, notExist.GetSpecifiedName()), hint), "option inconnue : --%s", notExist.GetSpecifiedName())
	case errors.As(err, &noValue):
		return usageError(hint, "l'option %s attend une valeur", flagName(noValue.GetFlag()))
	case errors.As(err, &badValue):
		return usageError(hint, "valeur refusée pour %s : %q ; %s", flagName(badValue.GetFlag()), badValue.GetValue(), expected(badValue))
	case errors.As(err, &syntax):
		return usageError(hint, "option mal écrite : %s", syntax.GetSpecifiedFlag())
	}
	return usageError(hint, "ligne de commande refusée : %s", err.Error())
}

// suggestFlags are c's flags a mistyped name may mean, by cobra's rule.
func suggestFlags(c *cobra.Command, typed string) []string {
	names := &cobra.Command{SuggestionsMinimumDistance: 2}
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names.AddCommand(&cobra.Command{Use: "--" + f.Name, Run: func(*cobra.Command, []string) {}})
		}
	})
	return names.SuggestionsFor("--" + typed)
}

func flagName(f *pflag.Flag) string {
	if f.Shorthand != "" {
		return fmt.Sprintf("-%s (--%s)", f.Shorthand, f.Name)
	}
	return "--" + f.Name
}

// expected says what a flag takes: pflag's types give English reasons.
func expected(e *pflag.InvalidValueError) string {
	switch e.GetFlag().Value.Type() {
	case "bool":
		return "attendu : true ou false (ou l'option seule)"
	case "int", "int64", "uint":
		return "attendu : un nombre entier"
	case "duration":
		return "attendu : une durée comme 90s, 3m ou 1h"
	}
	return e.Unwrap().Error()
}
