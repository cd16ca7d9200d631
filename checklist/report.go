// Package checklist holds the report model every rule set of pret fills
// (checks of a machine, problems of a file), and the output formats they
// share. The rule sets live beside it, one package per kind of file:
// acces, sbatch, livrables, sunk; the checks of `pret verifier` in learner.
package checklist

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"iter"
	"slices"
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
	count := map[Status]*int{Pass: &s.Pass, Warn: &s.Warn, Fail: &s.Fail, Skip: &s.Skip}
	for _, c := range r.Checks {
		if n := count[c.Status]; n != nil {
			*n++
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
// of file and empty for the others (organisateurs.md, livrables.md).
type FileResult struct {
	Path            string    `json:"path"`
	Valid           bool      `json:"valid"`
	Fingerprint     string    `json:"fingerprint"` // stated in an acces.md
	FingerprintLine int       `json:"-"`           // where: duplicate-fingerprint points there
	Problems        []Problem `json:"problems"`
	// Apprenant names who handed the file in, as the platform did;
	// Archive and Entry locate a file read inside a .zip (Path is then
	// "ARCHIVE!/ENTRY").
	Apprenant string `json:"apprenant,omitempty"`
	Archive   string `json:"archive,omitempty"`
	Entry     string `json:"entry,omitempty"`
	// Date (AAAA-MM-JJ) and Statut ("demande" or "verifie", always
	// written) are stated by the file.
	Date   string `json:"date,omitempty"`
	Statut string `json:"statut"`
	// DuplicateOf lists other paths that state the same fingerprint,
	// capped (a key shared by thousands would cost memory in the square
	// of their number); DuplicateCount says how many there are.
	DuplicateOf    []string         `json:"duplicate_of,omitempty"`
	DuplicateCount int              `json:"duplicate_count,omitempty"`
	Effective      *SbatchEffective `json:"effective,omitempty"` // pret livrables
	Explain        []string         `json:"-"`                   // texte only: the script line by line
	// Participant is the Moodle participant number ("Participant
	// 123456"); Email comes from the grading worksheet.
	Participant string `json:"participant,omitempty"`
	Email       string `json:"email,omitempty"`
	Signed      bool   `json:"signed"` // a signature holds, made by the stated key
	// Others are the learner's other candidate files, not validated: a
	// learner gets one verdict, from the latest file.
	Others []string `json:"others,omitempty"`
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

var statusLabel = map[Status][2]string{Pass: {"32", "OK       "}, Warn: {"33", "ATTENTION"}, Fail: {"31", "ÉCHEC    "}, Skip: {"90", "SAUTÉ    "}}

// WriteReport writes a checklist in one of Formats.
func WriteReport(w io.Writer, format string, r *Report, style Style) error {
	switch format {
	case "json":
		doc := struct {
			Checks  []Check `json:"checks"`
			Summary Summary `json:"summary"`
		}{append([]Check{}, r.Checks...), r.Summary()}
		return writeJSON(w, doc)
	case "junit":
		return writeChecksJUnit(w, r)
	}
	for _, c := range r.Checks {
		l := statusLabel[c.Status]
		fmt.Fprintf(w, "%s  %-22s %s\n", style.paint(l[0], l[1]), Escape(c.ID), Escape(c.Message))
		if c.Fix != "" && (c.Status == Fail || c.Status == Warn) {
			fmt.Fprintf(w, "    → %s\n", Escape(c.Fix))
		}
	}
	s := r.Summary()
	_, err := fmt.Fprintf(w, "Résumé : %d réussi%s, %d avertissement%s, %d échec%s, %d sauté%s\n",
		s.Pass, Plural(s.Pass), s.Warn, Plural(s.Warn), s.Fail, Plural(s.Fail), s.Skip, Plural(s.Skip))
	return err
}

func Plural(n int) string {
	if n > 1 {
		return "s"
	}
	return ""
}

// JUnit XML valid against Jenkins' schema (docs/schemas/junit-10.xsd):
// testsuites counts no skipped tests, the suite does; errors (tests that
// could not run) is always 0, pret's problems being failures.
type junitCase struct {
	XMLName   xml.Name      `xml:"testcase"`
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitFailure `xml:"skipped,omitempty"` // its message only
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Type    string `xml:"type,attr,omitempty"`
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// writeXML writes one suite of the cases, one at a time (a first pass
// counts them): a run over 100,000 files is never held as one document.
func writeXML(w io.Writer, name string, cases iter.Seq[junitCase]) error {
	var tests, failures, skipped int
	for c := range cases {
		tests++
		if c.Failure != nil {
			failures++
		}
		if c.Skipped != nil {
			skipped++
		}
	}
	attr := func(k string, v any) xml.Attr { return xml.Attr{Name: xml.Name{Local: k}, Value: fmt.Sprint(v)} }
	suites := xml.StartElement{Name: xml.Name{Local: "testsuites"}, Attr: []xml.Attr{attr("name", name), attr("tests", tests), attr("failures", failures), attr("errors", 0)}}
	suite := xml.StartElement{Name: xml.Name{Local: "testsuite"}, Attr: append(slices.Clip(suites.Attr), attr("skipped", skipped))}
	return writeEscaped(w, xmlEscape, func(w io.Writer) error {
		io.WriteString(w, xml.Header)
		enc := xml.NewEncoder(w)
		enc.Indent("", "  ")
		enc.EncodeToken(suites)
		enc.EncodeToken(suite)
		for c := range cases {
			if err := enc.Encode(c); err != nil {
				return err
			}
		}
		enc.EncodeToken(suite.End())
		enc.EncodeToken(suites.End())
		if err := enc.Close(); err != nil {
			return err
		}
		_, err := io.WriteString(w, "\n")
		return err
	})
}

func writeChecksJUnit(w io.Writer, r *Report) error {
	var cases []junitCase
	class := strings.ReplaceAll(r.Name, " ", ".")
	for _, c := range r.Checks {
		jc := junitCase{Name: c.ID, Classname: class, SystemOut: c.Message}
		switch c.Status {
		case Fail:
			jc.Failure, jc.SystemOut = &junitFailure{c.ID, c.Message, c.Fix}, ""
		case Skip:
			jc.Skipped, jc.SystemOut = &junitFailure{Message: c.Message}, ""
		case Warn:
			jc.SystemOut = "attention : " + c.Message
			if c.Fix != "" {
				jc.SystemOut += "\nconseil : " + c.Fix
			}
		}
		cases = append(cases, jc)
	}
	return writeXML(w, r.Name, slices.Values(cases))
}

// writeFilesJUnit writes one testcase per file (name the path,
// classname the learner) with at most one failure: its message lists the
// error codes, its body every problem. Warnings go to system-out.
func writeFilesJUnit(w io.Writer, r FilesReport) error {
	class := strings.ReplaceAll(r.Name, " ", ".")
	return writeXML(w, r.Name, func(yield func(junitCase) bool) {
		for f := range r.all() {
			jc := junitCase{Name: f.Path, Classname: cmp.Or(f.Apprenant, class)}
			var body, out []string
			for _, p := range f.Problems {
				if p.Severity == SevError || !f.Valid {
					body = append(body, problemLine(p))
				}
				if p.Severity == SevWarning {
					out = append(out, problemLine(p))
				}
			}
			if !f.Valid {
				// Under --strict the warnings fail the file; with no problem
				// to say why, the file still has one failure.
				codes := f.codes(SevError)
				if len(codes) == 0 {
					codes = f.codes(SevWarning)
				}
				if len(codes) == 0 {
					codes = []string{"invalide"}
				}
				jc.Failure = &junitFailure{codes[0], strings.Join(codes, ", "), strings.Join(body, "\n")}
			}
			jc.SystemOut = strings.Join(out, "\n")
			if !yield(jc) {
				return
			}
		}
	})
}

// problemLine is one problem as a line of text.
func problemLine(p Problem) string {
	s := fmt.Sprintf("%s (%s) : %s", p.Code, severityLabel(p.Severity), p.Message)
	if p.Line > 0 {
		return fmt.Sprintf("ligne %d : %s", p.Line, s)
	}
	return s
}

func severityLabel(s Severity) string {
	if s == SevWarning {
		return "avertissement"
	}
	return "erreur"
}
