// Package checklist holds the report model the rule sets (acces, sbatch,
// livrables, sunk, learner) fill, and the output formats they share.
package checklist

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"iter"
	"slices"
	"strings"

	"github.com/romeo-pret/pret/internal/termtext"
)

type Status string

const (
	Pass Status = "pass"
	Warn Status = "warn"
	Fail Status = "fail"
	Skip Status = "skip"
)

type Check struct {
	ID      string `json:"id"`
	Status  Status `json:"status"`
	Message string `json:"message"`
	Fix     string `json:"fix"`
}

type Report struct {
	Name   string // "pret verifier"
	Checks []Check
}

type Summary struct {
	Pass int `json:"pass"`
	Warn int `json:"warn"`
	Fail int `json:"fail"`
	Skip int `json:"skip"`
}

// Add appends one check's line, in the order the checks run.
func (r *Report) Add(id string, st Status, msg, fix string) {
	r.Checks = append(r.Checks, Check{ID: id, Status: st, Message: msg, Fix: fix})
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

func (r *Report) OK(strict bool) bool {
	s := r.Summary()
	return s.Fail == 0 && (!strict || s.Warn == 0)
}

// Severity: only errors make a file invalid. The values are SARIF's levels.
type Severity string

const (
	SevError   Severity = "error"
	SevWarning Severity = "warning"
)

// Problem has a stable code (acces-md.md, livrables.md).
type Problem struct {
	Code     Code     `json:"code"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	Line     int      `json:"line,omitempty"`
}

// Problems are a rule set's findings, in the order it made them.
type Problems []Problem

// Add appends a problem, its message made as fmt.Sprintf makes it.
func (p *Problems) Add(code Code, sev Severity, line int, format string, args ...any) {
	*p = append(*p, Problem{Code: code, Severity: sev, Message: fmt.Sprintf(format, args...), Line: line})
}

// FileResult is one validated file (organisateurs.md, livrables.md).
type FileResult struct {
	Path            string    `json:"path"`
	Valid           bool      `json:"valid"`
	Fingerprint     string    `json:"fingerprint"` // stated in an acces.md
	FingerprintLine int       `json:"-"`           // where: duplicate-fingerprint points there
	Problems        []Problem `json:"problems"`
	// Archive and Entry locate a file read in a .zip ("ARCHIVE!/ENTRY").
	Apprenant string `json:"apprenant,omitempty"`
	Archive   string `json:"archive,omitempty"`
	Entry     string `json:"entry,omitempty"`
	Date      string `json:"date,omitempty"`
	Statut    string `json:"statut"`
	// DuplicateOf is capped (else memory in the square of a key's sharers).
	DuplicateOf    []string         `json:"duplicate_of,omitempty"`
	DuplicateCount int              `json:"duplicate_count,omitempty"`
	Effective      *SbatchEffective `json:"effective,omitempty"` // pret livrables
	Explain        []string         `json:"-"`                   // texte only: the script line by line
	// Participant is Moodle's "Participant 123456"; Email from the worksheet.
	Participant string `json:"participant,omitempty"`
	Email       string `json:"email,omitempty"`
	Signed      bool   `json:"signed"` // a signature holds, made by the stated key
	// Others: the learner's other files, not validated (one verdict, the latest).
	Others []string `json:"others,omitempty"`
	// OthersTied: nothing but their paths chose this file over the others
	// (same time, names Moodle does not order): the organiser decides.
	OthersTied bool `json:"others_tied,omitempty"`
}

// SbatchEffective (livrables.md) is here, not in sbatch: no import cycle.
type SbatchEffective struct {
	AcceptedBySbatch  bool   `json:"accepted_by_sbatch"`
	JobName           string `json:"job_name"`
	Output            string `json:"output"`
	TimeLimitMinutes  *int   `json:"time_limit_minutes"`
	CPUsPerTask       int    `json:"cpus_per_task"`
	MemMiB            int64  `json:"mem_mib"`
	IgnoredDirectives []int  `json:"ignored_directives"`
}

var Formats = []string{"texte", "json", "junit"}

// Style: the caller decides colour (a terminal, no NO_COLOR).
type Style struct{ Color bool }

func (s Style) paint(code, text string) string {
	if !s.Color {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

var statusLabel = map[Status][2]string{Pass: {"32", "OK       "}, Warn: {"33", "ATTENTION"}, Fail: {"31", "ÉCHEC    "}, Skip: {"90", "SAUTÉ    "}}

func WriteReport(w io.Writer, format string, r *Report, style Style) error {
	switch format {
	case "json":
		doc := struct {
			Checks  []Check `json:"checks"`
			Summary Summary `json:"summary"`
		}{append([]Check{}, r.Checks...), r.Summary()}
		return writeJSON(w, doc)
	case "junit":
		var cases []junitCase
		for _, c := range r.Checks {
			jc := junitCase{Name: c.ID, Classname: strings.ReplaceAll(r.Name, " ", "."), SystemOut: c.Message}
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
	for _, c := range r.Checks {
		l := statusLabel[c.Status]
		fmt.Fprintf(w, "%s  %-22s %s\n", style.paint(l[0], l[1]), termtext.Escape(c.ID), termtext.Escape(c.Message))
		if c.Fix != "" && (c.Status == Fail || c.Status == Warn) {
			fmt.Fprintf(w, "    → %s\n", termtext.Escape(c.Fix))
		}
	}
	s := r.Summary()
	_, err := fmt.Fprintf(w, "Résumé : %d réussi%s, %d avertissement%s, %d échec%s, %d sauté%s\n",
		s.Pass, termtext.Plural(s.Pass), s.Warn, termtext.Plural(s.Warn), s.Fail, termtext.Plural(s.Fail), s.Skip, termtext.Plural(s.Skip))
	return err
}

// docs/schemas/junit-10.xsd: only the suite counts skipped; errors is 0.
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
	// Encode flushes whole elements into buf: each escape sees whole runes.
	bw := bufio.NewWriter(w)
	var buf bytes.Buffer
	flush := func() {
		bw.Write(escapeEncoded(buf.Bytes(), xmlEscape)) // an error stays for Flush
		buf.Reset()
	}
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	bw.WriteString(xml.Header)
	enc.EncodeToken(suites)
	enc.EncodeToken(suite)
	for c := range cases {
		if err := enc.Encode(c); err != nil {
			return err
		}
		flush()
	}
	enc.EncodeToken(suite.End())
	enc.EncodeToken(suites.End())
	if err := enc.Close(); err != nil {
		return err
	}
	flush()
	bw.WriteString("\n")
	return bw.Flush()
}

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
				// --strict fails a file for its warnings; with none, still one failure.
				codes := cmp.Or(strings.Join(f.codes(SevError), ", "), strings.Join(f.codes(SevWarning), ", "), "invalide")
				first, _, _ := strings.Cut(codes, ",")
				jc.Failure = &junitFailure{first, codes, strings.Join(body, "\n")}
			}
			if o := f.OthersLine(); o != "" {
				out = append(out, o)
			}
			jc.SystemOut = strings.Join(out, "\n")
			if !yield(jc) {
				return
			}
		}
	})
}

func problemLine(p Problem) string {
	p.Message = fmt.Sprintf("%s (%s) : %s", p.Code, severityLabels[p.Severity], p.Message)
	return p.Located()
}

// Located is the message after its line, when it has one.
func (p Problem) Located() string {
	if p.Line > 0 {
		return fmt.Sprintf("ligne %d : %s", p.Line, p.Message)
	}
	return p.Message
}

var severityLabels = map[Severity]string{SevError: "erreur", SevWarning: "avertissement"}
