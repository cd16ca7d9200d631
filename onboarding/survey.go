package onboarding

// This is the only file that imports survey: it is no longer maintained,
// and replacing it must stay a one-file change.

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode"

	"github.com/AlecAivazis/survey/v2"
	"github.com/AlecAivazis/survey/v2/core"
	"github.com/AlecAivazis/survey/v2/terminal"
)

// SurveyPrompter asks questions on a terminal.
type SurveyPrompter struct {
	In  terminal.FileReader
	Out terminal.FileWriter
	Err interface{ Write([]byte) (int, error) }
	// NoColor turns survey's colours off (cmd sets it for NO_COLOR, even
	// empty, and TERM=dumb, which survey alone does not honour).
	NoColor bool
}

var frenchOnce sync.Once

// frenchTemplates replaces every English word survey would print. survey
// keeps its templates in package variables; they are set once, here.
func frenchTemplates() {
	frenchOnce.Do(func() {
		survey.ErrorTemplate = `{{color .Icon.Format }}{{ .Icon.Text }} Réponse refusée : {{ .Error.Error }}{{color "reset"}}
`
		r := strings.NewReplacer(
			"[Use arrows to move, type to filter", "[flèches pour choisir, Entrée pour valider",
			"[Use arrows to move, enter to select, type to continue]", "[flèches pour choisir, Entrée pour valider]",
			" for more help", " pour plus d'aide",
			" for help", " pour l'aide",
			" for suggestions", " pour des suggestions",
		)
		survey.PasswordQuestionTemplate = r.Replace(survey.PasswordQuestionTemplate)
		survey.SelectQuestionTemplate = r.Replace(survey.SelectQuestionTemplate)
		survey.InputQuestionTemplate = r.Replace(survey.InputQuestionTemplate)
	})
}

func (s *SurveyPrompter) opts() []survey.AskOpt {
	frenchTemplates()
	if s.NoColor {
		// A package variable of survey, read when a template is first
		// compiled; pret asks from one terminal per process.
		core.DisableColor = true
	}
	return []survey.AskOpt{survey.WithStdio(s.In, s.Out, s.Err)}
}

func mapErr(err error) error {
	if errors.Is(err, terminal.InterruptErr) {
		return ErrInterrupted
	}
	return err
}

// Password asks a passphrase with nothing at all shown while it is
// typed: survey's Password echoes one '*' per character (its
// HideCharacter cannot be "none"), which tells anyone watching how long
// the passphrase is. So this reads the runes itself, with survey's own
// terminal reader: Enter ends, Backspace erases, "?" alone shows the
// help, Ctrl-C interrupts, and Ctrl-D on an empty line cancels like
// Ctrl-C (it means "no answer", not "an empty passphrase").
func (s *SurveyPrompter) Password(message, help string) (string, error) {
	frenchTemplates()
	var answer string
	err := quietTerminal(s.In, func() error {
		var err error
		answer, err = s.readHidden(message, help)
		return err
	})
	return answer, mapErr(err)
}

func (s *SurveyPrompter) readHidden(message, help string) (string, error) {
	out := s.Out
	s.opts() // French templates, colours off when asked
	// survey's own question template and icons, so the prompt looks like
	// every other question (colours included).
	cfg := &survey.PromptConfig{HelpInput: "?", Icons: survey.IconSet{
		Help:     survey.Icon{Text: "?", Format: "cyan"},
		Question: survey.Icon{Text: "?", Format: "green+hb"},
	}}
	prompt := func(showHelp bool) {
		text, _, err := core.RunTemplate(survey.PasswordQuestionTemplate, survey.PasswordTemplateData{
			Password: survey.Password{Message: message, Help: help}, ShowHelp: showHelp, Config: cfg})
		if err != nil { // the template is survey's and fixed: never
			text = "? " + message + " "
		}
		fmt.Fprint(terminal.NewAnsiStdout(out), strings.ReplaceAll(text, "\n", "\r\n"))
	}
	rr := terminal.NewRuneReader(terminal.Stdio{In: s.In, Out: s.Out, Err: s.Err})
	if err := rr.SetTermMode(); err == nil {
		defer rr.RestoreTermMode()
	}
	prompt(false)
	var line []rune
	defer func() { clear(line) }()
	for {
		r, _, err := rr.ReadRune()
		if err != nil {
			fmt.Fprint(out, "\r\n")
			if errors.Is(err, io.EOF) && len(line) == 0 {
				return "", terminal.InterruptErr
			}
			return "", err
		}
		switch r {
		case '\r', '\n':
			fmt.Fprint(out, "\r\n")
			if help != "" && string(line) == "?" {
				line = line[:0]
				prompt(true)
				continue
			}
			return string(line), nil
		case terminal.KeyInterrupt:
			fmt.Fprint(out, "\r\n")
			return "", terminal.InterruptErr
		case terminal.KeyEndTransmission:
			if len(line) == 0 {
				fmt.Fprint(out, "\r\n")
				return "", terminal.InterruptErr
			}
		case terminal.KeyBackspace, terminal.KeyDelete:
			if len(line) > 0 {
				line = line[:len(line)-1]
			}
		case terminal.KeyDeleteLine, 0x15: // Ctrl-X, Ctrl-U: start over
			line = line[:0]
		default:
			if unicode.IsPrint(r) {
				line = append(line, r)
			}
		}
	}
}

func (s *SurveyPrompter) Select(message string, options []string, def int, help string) (int, error) {
	var answer int
	q := &survey.Select{Message: message, Options: options, Help: help}
	if def >= 0 && def < len(options) {
		q.Default = options[def]
	}
	err := quietTerminal(s.In, func() error { return survey.AskOne(q, &answer, s.opts()...) })
	return answer, mapErr(err)
}

func (s *SurveyPrompter) Input(message, def, help string) (string, error) {
	var answer string
	err := quietTerminal(s.In, func() error {
		return survey.AskOne(&survey.Input{Message: message, Default: def, Help: help}, &answer, s.opts()...)
	})
	return answer, mapErr(err)
}
