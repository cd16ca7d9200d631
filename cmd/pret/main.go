// Command pret gets a learner ready for the ROMEO session.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"
)

func main() {
	stopSignals := handleSignals(os.Stdin, os.Stderr)
	code := run(context.Background(), os.Args[1:], systemStreams(os.Stdin, os.Stdout, os.Stderr))
	stopSignals()
	os.Exit(code)
}

// run executes one command line and returns its exit code.
func run(ctx context.Context, args []string, ios *iostreams) int {
	out, streams := &checkedWriter{w: ios.Out}, *ios
	streams.Out, ios = out, &streams
	completing := len(args) > 0 && strings.HasPrefix(args[0], cobra.ShellCompRequestCmd)
	if completing {
		ios.Err = io.Discard // cobra's English debugging line; the shells drop it
	}
	root := newApp(ios).rootCommand()
	if completing {
		plainUsages(root)
	}
	// cobra reads os.Args for nil arguments.
	root.SetArgs(append([]string{}, args...))
	root.SetOut(ios.Out)
	root.SetErr(ios.Err)
	if err := dashPathArgs(root, args); err != nil {
		return exitCode(out.outcome(err), ios.Err)
	}
	return exitCode(out.outcome(root.ExecuteContext(ctx)), ios.Err)
}

// plainUsages drops the backquotes: the shells show usages as they are.
func plainUsages(c *cobra.Command) {
	// LocalFlags holds c's persistent flags too.
	c.LocalFlags().VisitAll(func(f *pflag.Flag) { f.Usage = strings.ReplaceAll(f.Usage, "`", "") })
	for _, sub := range c.Commands() {
		plainUsages(sub)
	}
}

// critical is held during a write: a signal waits for it.
var critical sync.Mutex

// signalled: a signal came; handleSignals exits once critical is free.
var signalled atomic.Bool

// guarded runs f, a write, to its end; a signal that came meanwhile stops
// the run there: no further write, no success said.
func guarded(f func() error) error {
	critical.Lock()
	err := f()
	critical.Unlock()
	if signalled.Load() {
		select {} // handleSignals exits
	}
	return err
}

// stops are the signals pret stops on: its exit code, and how it says it.
var stops = map[os.Signal]struct {
	code int
	how  string
}{
	os.Interrupt:    {exitInterrupted, "interrompu (Ctrl-C)"},
	syscall.SIGTERM: {exitTerminated, "arrêté (SIGTERM)"},
	syscall.SIGHUP:  {exitHangup, "arrêté : le terminal s'est fermé (SIGHUP)"},
}

// handleSignals exits 130, 143 or 129 (SIGHUP: the terminal closed) once
// the write in progress ends, the terminal restored (Ctrl-C at a survey
// question is a key, not a signal).
func handleSignals(stdin *os.File, stderr io.Writer) (stop func()) {
	var saved *term.State
	if term.IsTerminal(int(stdin.Fd())) {
		saved, _ = term.GetState(int(stdin.Fd()))
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			signalled.Store(true)
			critical.Lock()
			if saved != nil {
				term.Restore(int(stdin.Fd()), saved)
				if os.Getenv("TERM") != "dumb" {
					// A choice list hides the cursor until it is answered.
					fmt.Fprint(stderr, "\x1b[?25h")
				}
			}
			st := stops[sig]
			fmt.Fprintf(stderr, "\npret: erreur : %s ; aucun fichier n'a été laissé à moitié écrit : chacun est entier ou absent\n", st.how)
			fmt.Fprintln(stderr, "pret: conseil : relancez la commande pour finir ; ce qu'elle a déjà écrit en entier reste (un fichier existant n'est pas remplacé sans qu'elle le dise)")
			os.Exit(st.code)
		case <-done:
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}
