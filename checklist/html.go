package checklist

import (
	"bufio"
	"cmp"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"iter"
	"strings"
	"unicode/utf8"
)

// Style and script are inline, named by hash in a CSP that forbids all else: an injected
// script would not run even if escaping failed. The page carries no comment, so report.css
// says why here: "[hidden]" beats every display; the page never scrolls sideways (WCAG
// reflow, 320 px), only the table's box does, which takes focus so a keyboard scrolls it;
// a shortened path, fingerprint or date stays on one line, the rest wraps.
var (
	//go:embed report.css
	reportCSS string
	//go:embed report.js
	reportJS string
	//go:embed report.html.tmpl
	reportHTML string
)

func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// "parts" gives text and markers; "whole" an attribute's string, "[U+202E]".
var funcs = template.FuncMap{
	"parts":    func(s string) []shownPart { return shownParts(XMLText(s)) },
	"whole":    whole,
	"short":    shortPath,
	"shortFp":  shortFingerprint,
	"statut":   statutLabel,
	"severity": func(s Severity) string { return severityLabels[s] },
	"verdict":  func(v string) string { return verdictLabels[v] },
	"label":    func(code Code) string { return Info(code).Label },
	"pair":     func(long, short string) shortened { return shortened{long, short} },
}

// shortened is a value and how a table cell shows it.
type shortened struct{ Long, Short string }

func whole(s string) string {
	var b strings.Builder
	for _, p := range shownParts(XMLText(s)) {
		b.WriteString(cmp.Or(p.Text, "["+p.Control+"]"))
	}
	return b.String()
}

type htmlData struct {
	Name, Title      string
	Sources          []string
	Generated        string // in French
	Summary          BatchSummary
	Incidents        []who
	Duplicates       [][]who
	Codes            []Code
	Files            iter.Seq[htmlFile] // made as the template ranges: never 100,000 rows held
	Incident, Policy string
	Style            template.CSS
	Script           template.JS
}

// who is what a list of the report shows of a file: the whole FileResult
// of each of 100,000 learners sharing one key would keep its messages.
type who struct{ Apprenant, Path, Email string }

type htmlFile struct {
	FileResult
	Verdict, Codes string
}

// shortPath: "rendus.zip!/…/acces.md".
func shortPath(p string) string {
	if utf8.RuneCountInString(p) <= 32 {
		return p
	}
	first, _, _ := strings.Cut(p, "/")
	last := p[strings.LastIndex(p, "/")+1:]
	if r := []rune(last); len(r) > 20 {
		last = "…" + string(r[len(r)-20:])
	}
	if r := []rune(first); len(r) > 8 {
		first = string(r[:8]) + "…"
	}
	return first + "/…/" + last
}

func shortFingerprint(fp string) string {
	if r := []rune(fp); len(r) > 16 {
		return string(r[:15]) + "…"
	}
	return fp
}

var verdictLabels = map[string]string{"valide": "valide", "avertissement": "valide, avec avertissements", "invalide": "invalide"}
var frenchMonths = [...]string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}

// writeFilesHTML: nothing from a file is ever marked safe for html/template.
func writeFilesHTML(w io.Writer, r FilesReport) error {
	name := cmp.Or(r.Name, "pret valider")
	d := htmlData{Name: name, Title: name, Sources: r.Sources, Summary: newSummary(), Incident: leakIncident,
		Policy: "default-src 'none'; style-src " + cspHash(reportCSS) + "; script-src " + cspHash(reportJS) +
			"; img-src 'none'; font-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'", Style: template.CSS(reportCSS), Script: template.JS(reportJS)}
	if len(r.Sources) == 1 {
		d.Title += " — " + r.Sources[0]
	}
	if t := r.Generated; !t.IsZero() {
		d.Generated = fmt.Sprintf("%d %s %d à %02d:%02d", t.Day(), frenchMonths[t.Month()-1], t.Year(), t.Hour(), t.Minute())
	}
	groups := map[string]int{}
	for f := range r.all() {
		d.Summary.add(f)
		w := who{f.Apprenant, f.Path, f.Email}
		if f.Leaks() {
			d.Incidents = append(d.Incidents, w)
		}
		if f.sharesKey() {
			group(&d.Duplicates, groups, f.Fingerprint, w)
		}
	}
	d.Codes = d.Summary.Codes.ordered()
	d.Files = func(yield func(htmlFile) bool) {
		for f := range r.all() {
			if !yield(htmlFile{f, f.verdict(), strings.Join(f.codes(""), " ")}) {
				return
			}
		}
	}
	bw := bufio.NewWriter(w)
	if err := template.Must(template.New("report").Funcs(funcs).Parse(reportHTML)).Execute(bw, d); err != nil {
		return err
	}
	return bw.Flush()
}
