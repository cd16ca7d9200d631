// Package surveyprompt asks onboarding's questions on a terminal through
// survey. The only package that imports survey: unmaintained, it must stay
// a one-package change to replace.
package surveyprompt

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/AlecAivazis/survey/v2"
	"github.com/AlecAivazis/survey/v2/core"
	"github.com/AlecAivazis/survey/v2/terminal"

	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/internal/textfold"
	"github.com/romeo-pret/pret/internal/textwrap"
	"github.com/romeo-pret/pret/onboarding"
)

// Prompter asks questions on a terminal: an onboarding.Prompter.
type Prompter struct {
	In      terminal.FileReader
	Out     terminal.FileWriter
	Err     interface{ Write([]byte) (int, error) }
	NoColor bool // NO_COLOR (even empty) or TERM=dumb, which survey ignores
	Width   int  // in columns (0: unknown), to wrap between words, not mid-word
	// Plain asks in lines of text for TERM=dumb: no cursor moves, a choice by its number.
	Plain bool

	answered bool // a passphrase was just given: a pasted CRLF's second end may follow
}

var _ onboarding.Prompter = (*Prompter)(nil)

const (
	selectHint       = "[flèches pour choisir, Entrée pour valider, ? pour plus d'aide]"
	selectHintNoHelp = "[flèches pour choisir, Entrée pour valider]"
	helpHint         = "[? pour l'aide]"
	selectHintAction = `[Use arrows to move, type to filter{{- if and .Help (not .ShowHelp)}}, {{ .Config.HelpInput }} for more help{{end}}]`
	typingRoom       = 12        // columns kept after a question for the answer
	surveyPrefix     = "?\u00a0" // survey's "? ", glued to the first word
	filterNote       = "[filtre tapé : Retour arrière l'efface]"
)

// selectTemplate is survey's own, before its hint is set for a width.
var selectTemplate = survey.SelectQuestionTemplate

// setup puts French words in survey's templates (package variables) for the width.
func (s *Prompter) setup() {
	survey.ErrorTemplate = `{{color .Icon.Format }}{{ .Icon.Text }} Réponse refusée : {{ .Error.Error }}{{color "reset"}}
`
	r := strings.NewReplacer(
		"[Use arrows to move, enter to select, type to continue]", selectHintNoHelp,
		" for more help", " pour plus d'aide",
		" for help", " pour l'aide",
		" for suggestions", " pour des suggestions",
	)
	survey.PasswordQuestionTemplate = r.Replace(survey.PasswordQuestionTemplate)
	survey.InputQuestionTemplate = r.Replace(survey.InputQuestionTemplate)
	// The hint follows two spaces, after the question or on its own line (fit).
	// Not the filter typed (survey writes it after the question): a
	// passphrase typed ahead of « Garder cette passphrase ? » would show.
	// That there is one, which may hide every option, is said in the
	// hint's place, shorter, so that it fits where the hint does.
	survey.SelectQuestionTemplate = strings.Replace(strings.Replace(selectTemplate, "{{ .FilterMessage }}", "", 1), selectHintAction,
		"{{- if .FilterMessage}}"+wrapAfter("  ", filterNote, s.Width)+
			"{{- else if and .Help (not .ShowHelp)}}"+wrapAfter("  ", selectHint, s.Width)+"{{- else}}"+wrapAfter("  ", selectHintNoHelp, s.Width)+"{{- end}}", 1)
	if s.NoColor {
		core.DisableColor = true // read at a template's first use: one terminal per process
	}
}

// wrapAfter wraps text for the width as written after prefix.
func wrapAfter(prefix, text string, width int) string {
	return strings.TrimPrefix(textwrap.Text(prefix+text, width), prefix)
}

// fit wraps a question after survey's "? ", then a break if need columns do not fit.
func (s *Prompter) fit(message string, need int) string {
	if s.Width <= 0 {
		return message
	}
	w := wrapAfter(surveyPrefix, message, s.Width)
	col := textwrap.Columns(w[strings.LastIndexByte(w, '\n')+1:])
	if !strings.Contains(w, "\n") {
		col += 2
	}
	if col+need > s.Width {
		w += "\n"
	}
	return w
}

// ask turns echo and signal keys off first: survey does so once its prompt is drawn,
// so text typed ahead would echo and a Ctrl-C would race its terminal changes.
func (s *Prompter) ask(q survey.Prompt, answer any) error {
	s.setup()
	if rr := terminal.NewRuneReader(terminal.Stdio{In: s.In}); rr.SetTermMode() == nil {
		defer rr.RestoreTermMode()
	}
	in := endIsInterrupt{s.In}
	err := survey.AskOne(q, answer, survey.WithStdio(in, s.Out, s.Err))
	for strayEscape(err) {
		fmt.Fprint(s.Out, "\r\n✘ Touche non reconnue (Échap, ou Alt et une lettre) : la question est reposée.\r\n")
		err = survey.AskOne(q, answer, survey.WithStdio(in, s.Out, s.Err))
	}
	if errors.Is(err, terminal.InterruptErr) {
		return onboarding.ErrInterrupted
	}
	return err
}

// endIsInterrupt gives survey Ctrl-C for Ctrl-D (end of input): survey
// takes Ctrl-D for Enter, which noted a default nobody confirmed (today's
// date), while the same key ends the plain questions of TERM=dumb.
type endIsInterrupt struct{ terminal.FileReader }

func (r endIsInterrupt) Read(b []byte) (int, error) {
	n, err := r.FileReader.Read(b)
	for i, c := range b[:n] {
		if c == 0x04 { // never inside a UTF-8 character or an escape sequence
			b[i] = 0x03
		}
	}
	return n, err
}

// strayEscape reports survey's error, in English, for Escape followed by a
// key it does not know (Alt and a letter, on many terminals): a key typed,
// not a failure.
func strayEscape(err error) bool {
	return err != nil && strings.HasPrefix(err.Error(), "unexpected escape sequence")
}

// Password shows nothing while typed: survey's '*' per character tells the length.
func (s *Prompter) Password(message, help string) (string, error) {
	s.setup()
	cfg := &survey.PromptConfig{HelpInput: "?", Icons: survey.IconSet{
		Help:     survey.Icon{Text: "?", Format: "cyan"},
		Question: survey.Icon{Text: "?", Format: "green+hb"},
	}}
	prompt := func(showHelp bool) {
		// survey's fixed template: it never fails.
		text, _, _ := core.RunTemplate(survey.PasswordQuestionTemplate, survey.PasswordTemplateData{
			Password: survey.Password{Message: s.fit(message, 1+len(helpHint)+1+typingRoom), Help: wrapAfter(surveyPrefix, help, s.Width)}, ShowHelp: showHelp, Config: cfg})
		fmt.Fprint(terminal.NewAnsiStdout(s.Out), strings.ReplaceAll(text, "\n", "\r\n"))
	}
	// Quiet before the prompt is drawn, as in ask.
	rr := terminal.NewRuneReader(terminal.Stdio{In: s.In, Out: s.Out, Err: s.Err})
	if err := rr.SetTermMode(); err == nil {
		defer rr.RestoreTermMode()
	}
	dropTypedAhead(s.In.Fd())
	prompt(false)
	for {
		line, err := s.readUnseen(false)
		// What came with the answer goes too: the LF of a CRLF pasted,
		// which survey took for Enter at the next question (outside tester).
		dropTypedAhead(s.In.Fd())
		if err != nil || help == "" || line != "?" {
			return line, err
		}
		prompt(true)
	}
}

// readUnseen reads a line from a terminal set quiet (SetTermMode), nothing
// echoed. Bytes, not survey's reader: it takes an escape sequence it does
// not know (F1, Ctrl+arrow) for another key, eating what is typed next or
// adding "5D", and gives Ctrl-A, Ctrl-B… the codes of the keys it knows,
// all of which a key made then would not have as its passphrase. Here
// every byte is the line's, as ssh-add's prompt reads it, but those a
// terminal edits the line with: Backspace, Ctrl-U (the line). Ctrl-D
// interrupts on an empty line, or on any line for a choice, where Enter
// alone is an answer (the default) even just after another.
func (s *Prompter) readUnseen(choice bool) (string, error) {
	var line []byte
	defer func() { clear(line) }()
	b := make([]byte, 1)
	for {
		n, err := s.In.Read(b)
		// A terminal turns the CR of a pasted CRLF into a LF too: an empty
		// line first thing after an answer is that paste's end, once.
		c, lf := b[0], n == 1 && s.answered && (b[0] == '\n' || b[0] == '\r')
		if n == 1 {
			s.answered = false
		}
		switch {
		case n == 0 && err == nil:
		case n == 0 && errors.Is(err, io.EOF) && len(line) == 0, n == 1 && (c == 0x03 || c == 0x04 && (len(line) == 0 || choice)):
			fmt.Fprint(s.Out, "\r\n")
			return "", onboarding.ErrInterrupted
		case n == 0:
			fmt.Fprint(s.Out, "\r\n")
			return "", err
		case lf:
		case c == '\r' || c == '\n':
			fmt.Fprint(s.Out, "\r\n")
			s.answered = len(line) > 0 && !choice
			return string(line), nil
		case c == 0x7f || c == 0x08: // Backspace: the last character
			_, size := utf8.DecodeLastRune(line)
			line = line[:len(line)-size]
		case c == 0x15: // Ctrl-U: the whole line
			line = line[:0]
		default:
			// A tab, a control, Escape (an arrow, a function key, Alt and a
			// letter send it): the wizard refuses them with their code
			// (onboarding.Untypable), and names an odd space (SpaceTrap).
			line = append(line, c)
		}
	}
}

func (s *Prompter) Select(message string, options []string, def int, help string) (int, error) {
	if s.Plain {
		return s.plainSelect(message, options, def, help)
	}
	// After the question: the hint's first line, or the option chosen.
	need := 2 + textwrap.Columns(strings.SplitN(wrapAfter("  ", selectHint, s.Width), "\n", 2)[0])
	for _, o := range options {
		need = max(need, 1+textwrap.Columns(o))
	}
	q := &survey.Select{Message: s.fit(message, need), Options: options, Help: wrapAfter(surveyPrefix, help, s.Width), Filter: keepsOne}
	if def >= 0 && def < len(options) {
		q.Default = options[def]
	}
	var answer int
	err := s.ask(q, &answer)
	return answer, err
}

// keepsOne filters on the letters typed, a number
// keeping its option as with TERM=dumb ("2": the second; outside tester:
// it matched no letters, and Enter took the default). A filter no option
// matches hides them all, and Enter then chooses nothing: stray text once
// took the default, « Oui » at « Écrire acces.md à cet endroit ? »
// (outside tester). survey's end with no option, Ctrl-D, never comes:
// endIsInterrupt makes it Ctrl-C.
func keepsOne(filter, value string, index int) bool {
	filter = strings.TrimSpace(filter) // " 2", as TERM=dumb reads it
	if n, err := strconv.Atoi(filter); err == nil {
		return n == index+1
	}
	// The options that start so, accents and case aside, as TERM=dumb
	// takes a word: « demandé » is « Demandé, pas encore ouvert » in
	// both, where survey's « Pas encore demandé » held it too (outside tester).
	return strings.HasPrefix(textfold.Fold(value), textfold.Fold(filter))
}

func (s *Prompter) Input(message, def, help string) (string, error) {
	if s.Plain {
		return s.plainInput(message, def, help)
	}
	// survey prints its default raw: one escaping changes is shown escaped in the question.
	shown := def
	if termtext.Escape(def) != def {
		message, shown = message+" ("+termtext.Escape(def)+")", ""
	}
	need := 1 + typingRoom
	if help != "" {
		need += len(helpHint) + 1
	}
	if shown != "" {
		need += textwrap.Columns(shown) + 3
	}
	var answer string
	err := s.ask(&survey.Input{Message: s.fit(message, need), Default: shown, Help: wrapAfter(surveyPrefix, help, s.Width)}, &answer)
	if err == nil && answer == "" {
		answer = def
	}
	return answer, err
}

// plainAsk writes q and reads a line until it is not "?" for the help;
// unseen, from a terminal, nothing typed is echoed.
func (s *Prompter) plainAsk(q, help string, unseen bool) (string, error) {
	read := s.readLine
	if rr := terminal.NewRuneReader(terminal.Stdio{In: s.In}); unseen && rr.SetTermMode() == nil {
		defer rr.RestoreTermMode()
		read = func() (string, error) { return s.readUnseen(true) }
	}
	for {
		io.WriteString(s.Out, q)
		line, err := read()
		if answer := strings.TrimSpace(line); err != nil || answer != "?" || help == "" {
			return answer, err
		}
		io.WriteString(s.Out, s.wrap("? "+help))
	}
}

// plainSelect: the options numbered, then a line for the number.
func (s *Prompter) plainSelect(message string, options []string, def int, help string) (int, error) {
	io.WriteString(s.Out, s.wrap("? "+message))
	for i, o := range options {
		fmt.Fprintf(s.Out, "  %d) %s\n", i+1, o)
	}
	hasDef := def >= 0 && def < len(options)
	prompt := fmt.Sprintf("Numéro, de 1 à %d", len(options))
	if hasDef {
		prompt += fmt.Sprintf(" (%d)", def+1)
	}
	if help != "" {
		prompt += " " + helpHint
	}
	for {
		// Unseen: a passphrase typed ahead of « Garder cette passphrase ? »
		// would show (outside tester); the option taken is written instead.
		answer, err := s.plainAsk(prompt+" : ", help, true)
		n, nerr := strconv.Atoi(answer)
		i, named := optionNamed(answer, options)
		switch {
		case err != nil:
			return 0, err
		case answer == "" && hasDef:
			i, named = def, true
		case nerr == nil && n >= 1 && n <= len(options) && answer[0] != '+':
			i, named = n-1, true
		}
		if named {
			fmt.Fprintf(s.Out, "→ %s\n", options[i])
			return i, nil
		}
		// Not quoted: a passphrase typed ahead of this question would be
		// shown again (outside tester, at « Garder cette passphrase ? »).
		fmt.Fprintf(s.Out, "✘ Réponse refusée ; tapez un numéro de 1 à %d, ou le mot du choix.\n", len(options))
	}
}

// optionNamed is the option answer names, as the README promises: its whole
// text or its first words ("non" for « Non, choisir un autre dossier »),
// accents and case aside, when only one option starts so.
func optionNamed(answer string, options []string) (int, bool) {
	a := textfold.Fold(strings.TrimSpace(answer))
	if a == "" {
		return 0, false
	}
	found := -1
	for i, o := range options {
		o := textfold.Fold(o)
		rest, ok := strings.CutPrefix(o, a)
		switch {
		case ok && rest == "":
			return i, true
		case ok && (rest[0] == ' ' || rest[0] == ','):
			if found >= 0 {
				return 0, false
			}
			found = i
		}
	}
	return found, found >= 0
}

// plainInput: the question and its default as survey writes them.
func (s *Prompter) plainInput(message, def, help string) (string, error) {
	q := "? " + message
	if help != "" {
		q += " " + helpHint
	}
	if def != "" {
		q += " (" + termtext.Escape(def) + ")" // Enter gives def whole
	}
	answer, err := s.plainAsk(strings.TrimSuffix(s.wrap(q), "\n")+" ", help, false)
	if err == nil && answer == "" {
		answer = def
	}
	return answer, err
}

// wrap is text on lines of the terminal's width, ending with a newline.
func (s *Prompter) wrap(text string) string {
	return strings.TrimSuffix(textwrap.Text(text, s.Width), "\n") + "\n"
}

// readLine reads a byte at a time, leaving what follows to the next question.
func (s *Prompter) readLine() (string, error) {
	var line []byte
	b := make([]byte, 1)
	for len(line) <= 4096 {
		n, err := s.In.Read(b)
		if n == 1 {
			s.answered = false // a paste's end comes first thing, or not at all
		}
		switch {
		case n == 1 && b[0] == '\n':
			return strings.TrimSuffix(string(line), "\r"), nil
		case n == 1:
			line = append(line, b[0])
		case err != nil:
			io.WriteString(s.Out, "\n")
			if errors.Is(err, io.EOF) {
				// Ctrl-D, after text or not: Enter never came, no answer.
				return "", onboarding.ErrInterrupted
			}
			return "", err
		}
	}
	return "", errors.New("ligne trop longue")
}
