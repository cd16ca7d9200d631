// Package checklist holds the report model every rule set of pret fills
// (checks of a machine, problems of a file), and the three output formats
// they share. The rule sets live beside it, one package per kind of file:
// acces, sbatch, livrables, sunk; the checks of `pret verifier` in learner.
package checklist

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// Status of one check.
type Status string

const (
	Pass Status = "pass"
	Warn Status = "warn"
	Fail Status = "fail"
	Skip Status = "skip"
)

// Check is one line of a checklist. Fix says how to mend a failure.
type Check struct {
	ID      string `json:"id"`
	Status  Status `json:"status"`
	Message string `json:"message"`
	Fix     string `json:"fix"`
}

// Report is a whole checklist, in order.
type Report struct {
	Name   string // "pret verifier"
	Checks []Check
}

// Summary counts the checks per status.
type Summary struct {
	Pass int `json:"pass"`
	Warn int `json:"warn"`
	Fail int `json:"fail"`
	Skip int `json:"skip"`
}

func (r *Report) Summary() Summary {
	var s Summary
	for _, c := range r.Checks {
		switch c.Status {
		case Pass:
			s.Pass++
		case Warn:
			s.Warn++
		case Fail:
			s.Fail++
		case Skip:
			s.Skip++
		}
	}
	return s
}

// OK reports whether the checklist passes; with strict, a warning fails.
func (r *Report) OK(strict bool) bool {
	s := r.Summary()
	return s.Fail == 0 && (!strict || s.Warn == 0)
}

// Severity of a problem: only errors make a file invalid.
type Severity string

const (
	SevError   Severity = "error"
	SevWarning Severity = "warning"
)

// Problem is one finding in a file, with a stable code (acces-md.md,
// livrables.md).
type Problem struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	Line     int      `json:"line,omitempty"`
}

// FileResult is one validated file. The payload fields are typed per kind
// of file and empty for the others.
type FileResult struct {
	Path  string `json:"path"`
	Valid bool   `json:"valid"`
	// Fingerprint is the one stated in an acces.md.
	Fingerprint string    `json:"fingerprint"`
	Problems    []Problem `json:"problems"`
	// Effective is what Slurm retains from sommeil.sbatch (pret livrables).
	Effective *SbatchEffective `json:"effective,omitempty"`
	// Explain is shown in the text format only: the script line by line.
	Explain []string `json:"-"`
}

// SbatchEffective is what Slurm will retain from a batch script
// (livrables.md). It lives here, not in sbatch, so that FileResult can
// carry it without an import cycle; sbatch names it sbatch.Effective.
type SbatchEffective struct {
	AcceptedBySbatch  bool   `json:"accepted_by_sbatch"`
	JobName           string `json:"job_name"`
	Output            string `json:"output"`
	TimeLimitMinutes  *int   `json:"time_limit_minutes"`
	CPUsPerTask       int    `json:"cpus_per_task"`
	MemMiB            int64  `json:"mem_mib"`
	IgnoredDirectives []int  `json:"ignored_directives"`
	// Refusals say, in French, why sbatch would refuse the script.
	Refusals []string `json:"-"`
}

// FilesSummary counts the files.
type FilesSummary struct {
	Files   int `json:"files"`
	Valid   int `json:"valid"`
	Invalid int `json:"invalid"`
}

func summarizeFiles(files []FileResult) FilesSummary {
	s := FilesSummary{Files: len(files)}
	for _, f := range files {
		if f.Valid {
			s.Valid++
		} else {
			s.Invalid++
		}
	}
	return s
}

// Formats accepted by --format.
var Formats = []string{"texte", "json", "junit"}

// Style is how text output looks: colour only on a terminal without
// NO_COLOR, decided by the caller.
type Style struct{ Color bool }

func (s Style) paint(code, text string) string {
	if !s.Color {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

var statusLabel = map[Status]struct{ text, color string }{
	Pass: {"OK       ", "32"},
	Warn: {"ATTENTION", "33"},
	Fail: {"ÉCHEC    ", "31"},
	Skip: {"SAUTÉ    ", "90"},
}

// WriteReport writes a checklist in one of Formats.
func WriteReport(w io.Writer, format string, r *Report, style Style) error {
	switch format {
	case "json":
		checks := r.Checks
		if checks == nil {
			checks = []Check{}
		}
		return writeJSON(w, struct {
			Checks  []Check `json:"checks"`
			Summary Summary `json:"summary"`
		}{checks, r.Summary()})
	case "junit":
		return writeChecksJUnit(w, r)
	}
	for _, c := range r.Checks {
		l := statusLabel[c.Status]
		fmt.Fprintf(w, "%s  %-22s %s\n", style.paint(l.color, l.text), Escape(c.ID), Escape(c.Message))
		if c.Fix != "" && (c.Status == Fail || c.Status == Warn) {
			fmt.Fprintf(w, "    → %s\n", Escape(c.Fix))
		}
	}
	s := r.Summary()
	_, err := fmt.Fprintf(w, "Résumé : %d réussi%s, %d avertissement%s, %d échec%s, %d sauté%s\n",
		s.Pass, Plural(s.Pass), s.Warn, Plural(s.Warn), s.Fail, Plural(s.Fail), s.Skip, Plural(s.Skip))
	return err
}

// WriteFiles writes validated files in one of Formats.
func WriteFiles(w io.Writer, format, name string, files []FileResult, style Style) error {
	switch format {
	case "json":
		return writeFilesJSON(w, files)
	case "junit":
		return writeFilesJUnit(w, name, files)
	}
	for _, f := range files {
		verdict := style.paint("32", "valide  ")
		if !f.Valid {
			verdict = style.paint("31", "invalide")
		}
		fmt.Fprintf(w, "%s  %s\n", verdict, Escape(f.Path))
		for _, p := range f.Problems {
			where := ""
			if p.Line > 0 {
				where = fmt.Sprintf("ligne %d : ", p.Line)
			}
			sev := "erreur"
			if p.Severity == SevWarning {
				sev = "avertissement"
			}
			fmt.Fprintf(w, "    %s%s (%s) : %s\n", where, Escape(p.Code), sev, Escape(p.Message))
		}
		for _, e := range f.Explain {
			fmt.Fprintf(w, "    · %s\n", Escape(e))
		}
	}
	s := summarizeFiles(files)
	_, err := fmt.Fprintf(w, "Résumé : %d fichier%s, %d valide%s, %d invalide%s\n",
		s.Files, Plural(s.Files), s.Valid, Plural(s.Valid), s.Invalid, Plural(s.Invalid))
	return err
}

// writeFilesJSON streams the document one file at a time: for thousands
// of files, the output is never held whole in memory.
func writeFilesJSON(w io.Writer, files []FileResult) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("{\n  \"files\": [")
	for i, f := range files {
		if f.Problems == nil {
			f.Problems = []Problem{}
		}
		b, err := marshalIndent(f, "    ")
		if err != nil {
			return err
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    ")
		bw.Write(b)
	}
	if len(files) > 0 {
		bw.WriteString("\n  ")
	}
	b, err := marshalIndent(summarizeFiles(files), "  ")
	if err != nil {
		return err
	}
	bw.WriteString("],\n  \"summary\": ")
	bw.Write(b)
	bw.WriteString("\n}\n")
	return bw.Flush()
}

func marshalIndent(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func Plural(n int) string {
	if n > 1 {
		return "s"
	}
	return ""
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// JUnit XML as CI systems read it (the Ant/Surefire schema).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string         `xml:"name,attr"`
	Classname string         `xml:"classname,attr"`
	Failures  []junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped  `xml:"skipped,omitempty"`
	SystemOut string         `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Type    string `xml:"type,attr"`
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

func writeXML(w io.Writer, name string, cases []junitCase) error {
	suite := junitSuite{Name: name, Tests: len(cases), Cases: cases}
	for _, c := range cases {
		if len(c.Failures) > 0 {
			suite.Failures++
		}
		if c.Skipped != nil {
			suite.Skipped++
		}
	}
	doc := junitSuites{Name: name, Tests: suite.Tests, Failures: suite.Failures, Skipped: suite.Skipped, Suites: []junitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func writeChecksJUnit(w io.Writer, r *Report) error {
	var cases []junitCase
	class := strings.ReplaceAll(r.Name, " ", ".")
	for _, c := range r.Checks {
		jc := junitCase{Name: c.ID, Classname: class}
		switch c.Status {
		case Fail:
			jc.Failures = []junitFailure{{Type: c.ID, Message: c.Message, Text: c.Fix}}
		case Skip:
			jc.Skipped = &junitSkipped{Message: c.Message}
		case Warn:
			jc.SystemOut = "attention : " + c.Message
			if c.Fix != "" {
				jc.SystemOut += "\nconseil : " + c.Fix
			}
		default:
			jc.SystemOut = c.Message
		}
		cases = append(cases, jc)
	}
	return writeXML(w, r.Name, cases)
}

func writeFilesJUnit(w io.Writer, name string, files []FileResult) error {
	var cases []junitCase
	for _, f := range files {
		jc := junitCase{Name: f.Path, Classname: strings.ReplaceAll(name, " ", ".")}
		var out []string
		for _, p := range f.Problems {
			msg := p.Message
			if p.Line > 0 {
				msg = fmt.Sprintf("ligne %d : %s", p.Line, msg)
			}
			if p.Severity == SevError {
				jc.Failures = append(jc.Failures, junitFailure{Type: p.Code, Message: msg})
			} else {
				out = append(out, p.Code+" : "+msg)
			}
		}
		if !f.Valid && len(jc.Failures) == 0 {
			// --strict: the warnings are what makes the file fail.
			for _, p := range f.Problems {
				jc.Failures = append(jc.Failures, junitFailure{Type: p.Code, Message: p.Message})
			}
		}
		jc.SystemOut = strings.Join(out, "\n")
		cases = append(cases, jc)
	}
	return writeXML(w, name, cases)
}
