package main

import (
	"errors"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/romeo-pret/pret/internal/textwrap"
	"github.com/romeo-pret/pret/onboarding"
	"github.com/romeo-pret/pret/onboarding/surveyprompt"
)

// iostreams is the streams and the terminal, decided once at start.
type iostreams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer

	inTTY, outTTY bool
	noColor       bool                       // NO_COLOR set, or TERM=dumb
	width         int                        // the terminal's width in columns; 0 unknown or off a terminal
	prompter      func() onboarding.Prompter // nil: no question can be asked
}

func systemStreams(in, out, errw *os.File) *iostreams {
	_, noColor := os.LookupEnv("NO_COLOR") // any value, https://no-color.org
	// TERM=dumb: no colour nor cursor control; questions as plain lines.
	dumb := os.Getenv("TERM") == "dumb"
	s := &iostreams{In: in, Out: out, Err: errw, noColor: noColor || dumb,
		inTTY: term.IsTerminal(int(in.Fd())), outTTY: term.IsTerminal(int(out.Fd()))}
	if s.outTTY {
		s.width, _, _ = term.GetSize(int(out.Fd()))
	}
	s.prompter = func() onboarding.Prompter {
		return &surveyprompt.Prompter{In: in, Out: out, Err: errw, NoColor: s.noColor, Width: s.width, Plain: dumb}
	}
	return s
}

// Interactive reports whether questions can be asked.
func (s *iostreams) Interactive() bool { return s.inTTY && s.outTTY && s.prompter != nil }

func (s *iostreams) Color() bool { return s.outTTY && !s.noColor }

// Wrap re-flows text for the terminal's width (0, no wrap, off a terminal).
func (s *iostreams) Wrap(text string) string { return textwrap.Text(text, s.width) }

func (s *iostreams) Prompter() onboarding.Prompter { return s.prompter() }

// checkedWriter is standard output remembering its first write error,
// which fmt.Fprint and cobra ignore: a lost report never exits 0.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (n int, err error) {
	if c.err != nil {
		return 0, c.err // the stream is broken; more would repeat the error
	}
	n, c.err = c.w.Write(p)
	return n, c.err
}

// outcome turns a success or a silentExit into the failed write's error.
func (c *checkedWriter) outcome(err error) error {
	if _, silent := errors.AsType[*silentExit](err); c.err != nil && (err == nil || silent) {
		return c.err
	}
	return err
}
