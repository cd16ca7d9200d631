package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/textwrap"
	"github.com/romeo-pret/pret/onboarding"
)

// linePrompter asks on a terminal that says it cannot move its cursor
// (TERM=dumb). survey redraws a choice at each key with cursor codes
// (clear-line, cursor up, save and restore), which such a terminal
// prints as they are; here the choices are numbered and answered with a
// line, as on a teletype. The passphrase keeps survey's reader, which
// draws nothing but the question.
type linePrompter struct {
	*onboarding.SurveyPrompter
	in    io.Reader
	out   io.Writer
	width int
}

func (p *linePrompter) say(s string) {
	fmt.Fprintln(p.out, textwrap.Text(s, p.width))
}

// readLine reads one line a byte at a time: nothing is read ahead of
// what the person typed, so the passphrase reader that follows starts
// where this one ends. Ctrl-D on an empty line is no answer.
func (p *linePrompter) readLine() (string, error) {
	var line []byte
	b := make([]byte, 1)
	for {
		n, err := p.in.Read(b)
		if n == 1 {
			if b[0] == '\n' {
				return strings.TrimRight(string(line), "\r"), nil
			}
			line = append(line, b[0])
			continue
		}
		if err != nil {
			fmt.Fprintln(p.out)
			if err == io.EOF && len(line) > 0 {
				return string(line), nil
			}
			return "", onboarding.ErrInterrupted
		}
	}
}

func (p *linePrompter) Select(message string, options []string, def int, help string) (int, error) {
	p.say("? " + message)
	for i, o := range options {
		p.say(fmt.Sprintf("  %d. %s", i+1, o))
	}
	ask := fmt.Sprintf("Votre choix, de 1 à %d", len(options))
	if def >= 0 && def < len(options) {
		ask += fmt.Sprintf(" (Entrée : %d)", def+1)
	}
	if help != "" {
		ask += ", ? pour l'aide"
	}
	for {
		fmt.Fprint(p.out, ask+" : ")
		line, err := p.readLine()
		if err != nil {
			return 0, err
		}
		answer := strings.TrimSpace(line)
		switch n, numErr := strconv.Atoi(answer); {
		case answer == "" && def >= 0 && def < len(options):
			return def, nil
		case answer == "?" && help != "":
			p.say(help)
			continue
		case numErr == nil && n >= 1 && n <= len(options):
			return n - 1, nil
		}
		for i, o := range options {
			if answer != "" && checklist.Fold(answer) == checklist.Fold(o) {
				return i, nil
			}
		}
		p.say(fmt.Sprintf("Réponse non comprise (%s) : tapez un numéro de 1 à %d.", checklist.Escape(answer), len(options)))
	}
}

func (p *linePrompter) Input(message, def, help string) (string, error) {
	// The question ends with this prompter's own " : ".
	ask := "? " + strings.TrimSuffix(strings.TrimSpace(message), " :")
	if def != "" {
		ask += " (Entrée : " + def + ")"
	}
	if help != "" {
		ask += ", ? pour l'aide"
	}
	for {
		fmt.Fprint(p.out, textwrap.Text(ask+" : ", p.width))
		line, err := p.readLine()
		if err != nil {
			return "", err
		}
		switch strings.TrimSpace(line) {
		case "":
			return def, nil
		case "?":
			if help != "" {
				p.say(help)
				continue
			}
		}
		return line, nil
	}
}
