package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/onboarding"
)

// Exit codes (cli.md): exitCode alone turns an error into one.
const (
	exitOK          = 0
	exitFailed      = 1   // a check failed, an action was refused, or something unexpected broke
	exitUsage       = 2   // the command line or the configuration is wrong
	exitHangup      = 129 // SIGHUP, the terminal closed: 128 + 1
	exitInterrupted = 130
	exitTerminated  = 143 // SIGTERM: 128 + 15
)

// cliError is a failure the person can act on: what went wrong, what to
// do, and the exit code that says which.
type cliError struct {
	Msg  string
	Hint string
	Code int // exitUsage or exitFailed
}

func (e *cliError) Error() string { return e.Msg }

// usageError is exit 2: the command line or the configuration is wrong.
func usageError(hint, format string, args ...any) error {
	return &cliError{Msg: fmt.Sprintf(format, args...), Hint: hint, Code: exitUsage}
}

// refusedError is exit 1: pret understood and says no, or a check failed.
func refusedError(hint, format string, args ...any) error {
	return &cliError{Msg: fmt.Sprintf(format, args...), Hint: hint, Code: exitFailed}
}

// silentExit carries an exit code whose reason was already printed.
type silentExit struct{ code int }

func (s *silentExit) Error() string { return fmt.Sprintf("code de sortie %d", s.code) }

// exitCode reports err on stderr as cli.md says, and picks the code.
func exitCode(err error, stderr io.Writer) int {
	silent, isSilent := errors.AsType[*silentExit](err)
	failed, isFailed := errors.AsType[*cliError](err)
	refused, isRefused := errors.AsType[*onboarding.Error](err)
	msg, hint, code := "", "", exitFailed
	switch {
	case err == nil:
		return exitOK
	case isSilent:
		return silent.code
	case errors.Is(err, onboarding.ErrInterrupted):
		msg, code = "interrompu ; aucun fichier n'a été laissé à moitié écrit", exitInterrupted
	case isFailed:
		msg, hint, code = failed.Msg, failed.Hint, failed.Code
	case isRefused:
		msg, hint = refused.Error(), refused.Hint
		if refused.Input { // what the person gave (a setting, a template) is wrong
			code = exitUsage
		}
	default:
		// Not foreseen: not the person's mistake, so never exit 2.
		msg = describeError(err)
	}
	fmt.Fprintf(stderr, "pret: erreur : %s\n", termtext.Escape(msg))
	if hint != "" {
		fmt.Fprintf(stderr, "pret: conseil : %s\n", termtext.Escape(hint))
	}
	return code
}

// describeError says an unforeseen error in French, by safefile.Reason.
// Links and renames happen in safefile only: no *os.LinkError gets here.
func describeError(err error) string {
	if fe, ok := errors.AsType[*safefile.Error](err); ok {
		return fe.Error()
	}
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return fmt.Sprintf("%s : %s", pe.Path, safefile.Reason(pe.Err))
	}
	if _, ok := errors.AsType[syscall.Errno](err); ok {
		return safefile.Reason(err)
	}
	return err.Error()
}

// flagError is cobra's FlagErrorFunc: pflag's typed errors in French.
func flagError(c *cobra.Command, err error) error {
	hint := fmt.Sprintf("« %s --help » liste les options", c.CommandPath())
	if e, ok := errors.AsType[*pflag.NotExistError](err); ok {
		if s := e.GetSpecifiedShortnames(); len(s) > 1 {
			return usageError(hint, "option courte inconnue : -%s (dans -%s)", e.GetSpecifiedName(), s)
		} else if s != "" {
			return usageError(hint, "option courte inconnue : -%s", s)
		}
		return usageError(didYouMean(suggestFlags(c, e.GetSpecifiedName()), hint), "option inconnue : --%s", e.GetSpecifiedName())
	}
	if e, ok := errors.AsType[*pflag.ValueRequiredError](err); ok {
		return usageError(hint, "l'option %s attend une valeur", flagName(e.GetFlag()))
	}
	if e, ok := errors.AsType[*pflag.InvalidValueError](err); ok {
		// pret's flag types give French reasons; pflag's own are named here.
		want := pflagTypes[e.GetFlag().Value.Type()]
		return usageError(hint, "valeur refusée pour %s : « %s » ; %s", flagName(e.GetFlag()), termtext.Escape(e.GetValue()), cmp.Or(want, e.Unwrap().Error()))
	}
	if e, ok := errors.AsType[*pflag.InvalidSyntaxError](err); ok {
		return usageError(hint, "option mal écrite : %s", e.GetSpecifiedFlag())
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

// pflagTypes say what the values of pflag's types are, in French.
var pflagTypes = map[string]string{
	"bool":     "attendu : « true » ou « false », ou l'option seule, sans valeur",
	"int":      "attendu : un nombre entier",
	"duration": "attendu : une durée comme 90s, 3m ou 1h",
}
