package onboarding

// This is the only file that imports survey: it is no longer maintained,
// and replacing it must stay a one-file change.

import (
	"errors"
	"strings"
	"sync"

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

func (s *SurveyPrompter) Password(message, help string) (string, error) {
	var answer string
	err := quietTerminal(s.In, func() error {
		return survey.AskOne(&survey.Password{Message: message, Help: help}, &answer, s.opts()...)
	})
	return answer, mapErr(err)
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
