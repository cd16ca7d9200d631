// Command pret gets a learner ready for the ROMEO session: a dedicated
// ed25519 key, the access date, acces.md, and a checklist.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/term"

	"github.com/romeo-pret/pret/onboarding"
)

func main() { os.Exit(pretMain()) }

func pretMain() int {
	stopSignals := handleSignals(os.Stdin, os.Stderr)
	defer stopSignals()
	return run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// critical is held while a file is being written: a signal waits for it,
// so Ctrl-C never leaves a temporary or half-written file behind.
var critical sync.Mutex

func guarded(f func() error) error {
	critical.Lock()
	defer critical.Unlock()
	return f()
}

// handleSignals turns SIGINT and SIGTERM into a clean exit: the write in
// progress ends, the terminal gets its settings back, and the exit code is
// 130 (or 143 for SIGTERM). Ctrl-C at a survey question never gets here:
// survey reads it as a key in raw mode and returns an error instead.
func handleSignals(stdin *os.File, stderr io.Writer) (stop func()) {
	var saved *term.State
	if term.IsTerminal(int(stdin.Fd())) {
		saved, _ = term.GetState(int(stdin.Fd()))
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			critical.Lock()
			if saved != nil {
				term.Restore(int(stdin.Fd()), saved)
			}
			fmt.Fprintln(stderr, "\npret: erreur : interrompu ; aucun fichier n'a été laissé à moitié écrit")
			code := onboarding.ExitInterrupted
			if sig == syscall.SIGTERM {
				code = 143
			}
			os.Exit(code)
		case <-done:
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}

// usageError is exit 2: the command line or the environment is wrong.
func usageError(hint, format string, args ...any) error {
	return &onboarding.Error{Code: onboarding.ExitUsage, Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// exitCode reports err on stderr the way cli.md says and picks the code.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return onboarding.ExitOK
	}
	var se *silentExit
	if errors.As(err, &se) {
		return se.code
	}
	if errors.Is(err, onboarding.ErrInterrupted) {
		fmt.Fprintln(stderr, "pret: erreur : interrompu ; aucun fichier n'a été laissé à moitié écrit")
		return onboarding.ExitInterrupted
	}
	var pe *onboarding.Error
	if errors.As(err, &pe) {
		fmt.Fprintf(stderr, "pret: erreur : %s\n", pe.Error())
		if pe.Hint != "" {
			fmt.Fprintf(stderr, "pret: conseil : %s\n", pe.Hint)
		}
		return pe.Code
	}
	fmt.Fprintf(stderr, "pret: erreur : %s\n", frenchFlagError(err.Error()))
	fmt.Fprintln(stderr, "pret: conseil : « pret --help » liste les commandes et leurs options")
	return onboarding.ExitUsage
}

// silentExit carries an exit code whose reason was already printed (a
// failed check in a report).
type silentExit struct{ code int }

func (s *silentExit) Error() string { return fmt.Sprintf("code de sortie %d", s.code) }

// frenchFlagError translates the messages of pflag and cobra.
func frenchFlagError(msg string) string {
	r := strings.NewReplacer(
		"unknown shorthand flag:", "option courte inconnue :",
		"unknown flag:", "option inconnue :",
		"flag needs an argument:", "l'option attend une valeur :",
		"invalid argument", "valeur invalide",
		"for flag", "pour l'option",
		"unknown command", "commande inconnue",
		"accepts at most", "accepte au plus",
		"accepts", "accepte",
		"arg(s), received", "argument(s), reçu",
		"requires at least", "demande au moins",
		" for ", " pour ",
	)
	return r.Replace(msg)
}

func run(ctx context.Context, args []string, stdin *os.File, stdout, stderr io.Writer) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, ctx: ctx}
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetIn(stdin)
	err := root.ExecuteContext(ctx)
	return exitCode(err, stderr)
}
