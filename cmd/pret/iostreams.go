package main

import (
	"errors"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/romeo-pret/pret/internal/textwrap"
	"github.com/romeo-pret/pret/onboarding"
)

// iostreams is where a command reads and writes, and what it knows of
// the terminal, decided once when pret starts (like gh's iostreams). No
// command asks the system whether it runs on a terminal: it asks this
// value, which an in-process test fills as it likes.
type iostreams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer

	inTTY, outTTY bool
	// noColor is NO_COLOR set, or TERM=dumb.
	noColor bool
	// dumb is TERM=dumb: no cursor control codes at all, so the
	// questions are asked as plain lines (onboarding.SurveyPrompter.Plain).
	dumb bool
	// width is the terminal's width in columns, 0 when unknown.
	width int
	// prompter asks the questions; nil means none can be asked.
	prompter func() onboarding.Prompter
}

// systemStreams is the process's own streams.
func systemStreams(in *os.File, out, errw *os.File) *iostreams {
	s := &iostreams{
		In: in, Out: out, Err: errw,
		inTTY:   term.IsTerminal(int(in.Fd())),
		outTTY:  term.IsTerminal(int(out.Fd())),
		noColor: noColorEnv(os.LookupEnv),
		dumb:    os.Getenv("TERM") == "dumb",
	}
	if s.outTTY {
		if w, _, err := term.GetSize(int(out.Fd())); err == nil {
			s.width = w
		}
	}
	s.prompter = func() onboarding.Prompter {
		return &onboarding.SurveyPrompter{In: in, Out: out, Err: errw, NoColor: s.noColor, Width: s.width, Plain: s.dumb}
	}
	return s
}

// noColorEnv: NO_COLOR (any value, https://no-color.org) or TERM=dumb.
func noColorEnv(lookup func(string) (string, bool)) bool {
	if _, set := lookup("NO_COLOR"); set {
		return true
	}
	t, _ := lookup("TERM")
	return t == "dumb"
}

// Interactive reports whether questions can be asked: both ends are a
// terminal and something can ask.
func (s *iostreams) Interactive() bool { return s.inTTY && s.outTTY && s.prompter != nil }

// Color reports whether standard output may carry colour.
func (s *iostreams) Color() bool { return s.outTTY && !s.noColor }

// Wrap re-flows text for the terminal's width; off a terminal, or when
// the width is unknown, text goes out as it is (scripts read it).
func (s *iostreams) Wrap(text string) string {
	if !s.outTTY {
		return text
	}
	return textwrap.Text(text, s.width)
}

// Prompter is what asks the questions; call it only when Interactive.
func (s *iostreams) Prompter() onboarding.Prompter { return s.prompter() }

// checkedWriter is standard output remembering its first write error:
// commands print with fmt.Fprint and cobra prints help, none of which
// looks at the error, yet a report lost on a full disk or a closed
// stream must never end with exit 0 (cli.md: exit codes do not depend
// on the format).
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		// The stream is broken; more text would only repeat the error.
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// checkedOut is s with standard output checked (once).
func (s *iostreams) checkedOut() *iostreams {
	if _, ok := s.Out.(*checkedWriter); ok {
		return s
	}
	c := *s
	c.Out = &checkedWriter{w: s.Out}
	return &c
}

// outputError is what a command that returned err ends with, once its
// standard output is counted: a write that failed turns a success, or a
// failure already told in the report (silentExit), into that error, said
// on stderr in French; another error the command gave stands.
func (s *iostreams) outputError(err error) error {
	c, ok := s.Out.(*checkedWriter)
	if !ok || c.err == nil {
		return err
	}
	var silent *silentExit
	if err == nil || errors.As(err, &silent) {
		return c.err
	}
	return err
}
