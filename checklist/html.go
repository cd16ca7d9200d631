package checklist

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"iter"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// The page's style and script are inline, and the page forbids anything
// else with its Content-Security-Policy: no request leaves it, and a
// script or image injected by a hostile file name would not run or load
// even if escaping ever failed. The policy names the two blocks by hash.
//
// report.css holds no comment: the page is read by people, in French,
// source included. Its two rules that need one: "[hidden]" wins over
// every display rule (with scripts off, the controls that cannot work
// stay out of sight), and ".bidi" draws the visible marker of a control
// or invisible character from a file (bidiParts), shown, not applied.
var (
	//go:embed report.css
	reportCSS string
	//go:embed report.js
	reportJS string
	//go:embed report.html.tmpl
	reportHTML string

	// Parsed and hashed on first use: only --format html needs them.
	htmlTemplate = sync.OnceValue(func() *template.Template {
		return template.Must(template.New("report").Parse(reportHTML))
	})
	htmlPolicy = sync.OnceValue(func() string {
		return "default-src 'none'; style-src " + cspHash(reportCSS) + "; script-src " + cspHash(reportJS) +
			"; img-src 'none'; font-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'"
	})
)

func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

type htmlData struct {
	Name  []shownPart
	Title string
	// Sources are the arguments read (the archive's name), Generated
	// when the page was made, in French.
	Sources   [][]shownPart
	Generated string
	Summary   BatchSummary
	Incidents []htmlWho
	// Duplicates name the learners of each group that share a key.
	Duplicates [][]htmlWho
	Codes      []htmlCode
	// Files are made one at a time as the template ranges over them:
	// a page of 100,000 rows is never held as rows (organisateurs.md,
	// Scale).
	Files    iter.Seq[htmlFile]
	Incident string
	Policy   string
	Style    template.CSS
	Script   template.JS
}

type htmlCode struct {
	Code, Description, Severity string
	Files, Total                int
}

// htmlWho is a learner as a list names them: the name (the path when
// the platform gave none), the e-mail, and the path in full for the
// tooltip.
type htmlWho struct {
	Name, Email []shownPart
	Path        string
}

// Strings from files and file names are []shownPart: the template shows
// their bidi controls as markers (bidi.go). A long value is shown short
// (Path, Fingerprint) with the whole in PathFull and FingerprintFull:
// the tooltip, the copy and the sort take the whole.
type htmlFile struct {
	Apprenant, Email, Participant, Path, Date, Statut, Fingerprint []shownPart
	PathFull, FingerprintFull                                      string
	Verdict, VerdictLabel                                          string
	Signed, Incident                                               bool
	Codes                                                          string // space-separated, for the filter
	Problems                                                       []htmlProblem
}

type htmlProblem struct {
	Line           int
	Code, Severity string
	Message        []shownPart
}

// shown is a string from a file as the page holds it: valid UTF-8
// without the controls XML forbids (XMLText), as in the JUnit report,
// and its bidi controls apart.
func shown(s string) []shownPart { return shownParts(XMLText(s)) }

// whole is a string from a file as an attribute holds it (a tooltip, a
// value to copy): the controls as "[U+202E]" markers, since an attribute
// cannot hold the page's marker spans.
func whole(s string) string { return markedText(XMLText(s)) }

// shortPath keeps a long path's first folder and its file name, which
// with the learner's name say which file it is: "rendus.zip!/…/acces.md".
func shortPath(p string) string {
	const most = 32
	if utf8.RuneCountInString(p) <= most {
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

// shortFingerprint keeps the start of the hash, enough to tell two keys
// apart at a glance: "SHA256:bdWv8ASn…".
func shortFingerprint(fp string) string {
	if r := []rune(fp); len(r) > 16 {
		return string(r[:15]) + "…"
	}
	return fp
}

var verdictLabels = map[string]string{"valide": "valide", "avertissement": "valide, avec avertissements", "invalide": "invalide"}

var frenchMonths = [...]string{"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}

// frenchTime is "1 décembre 2026 à 19:05".
func frenchTime(t time.Time) string {
	return fmt.Sprintf("%d %s %d à %02d:%02d", t.Day(), frenchMonths[t.Month()-1], t.Year(), t.Hour(), t.Minute())
}

func who(f FileResult) htmlWho {
	name := f.Apprenant
	if name == "" {
		name = f.Path
	}
	return htmlWho{Name: shown(name), Email: shown(f.Email), Path: whole(f.Path)}
}

// writeFilesHTML writes one self-contained page. html/template escapes
// every string in its context; nothing from a file is ever marked safe.
func writeFilesHTML(w io.Writer, r FilesReport) error {
	s := summarize(r.all())
	name := r.Name
	if name == "" {
		name = "pret valider"
	}
	d := htmlData{Name: shown(name), Title: markedText(XMLText(name)), Summary: s, Incident: leakIncident,
		Policy: htmlPolicy(), Style: template.CSS(reportCSS), Script: template.JS(reportJS)}
	for _, src := range r.Sources {
		d.Sources = append(d.Sources, shown(src))
	}
	if len(r.Sources) == 1 {
		d.Title += " — " + whole(r.Sources[0])
	}
	if !r.Generated.IsZero() {
		d.Generated = frenchTime(r.Generated)
	}
	// The leaks come first (all), and the duplicates are few: one pass
	// finds both, keeping only those files.
	groups := map[string]int{} // fingerprint → index in d.Duplicates
	for f := range r.all() {
		if f.Leaks() {
			d.Incidents = append(d.Incidents, who(f))
		}
		if f.Fingerprint == "" || !f.has("duplicate-fingerprint") {
			continue
		}
		i, ok := groups[f.Fingerprint]
		if !ok {
			i = len(d.Duplicates)
			groups[f.Fingerprint] = i
			d.Duplicates = append(d.Duplicates, nil)
		}
		d.Duplicates[i] = append(d.Duplicates[i], who(f))
	}
	for _, c := range s.byFrequency() {
		info := codeInfo(c.Code, c.Severity)
		d.Codes = append(d.Codes, htmlCode{Code: c.Code, Description: info.Label, Severity: string(c.Severity), Files: c.Files, Total: s.Files})
	}
	d.Files = func(yield func(htmlFile) bool) {
		for f := range r.all() {
			hf := htmlFile{Apprenant: shown(f.Apprenant), Email: shown(f.Email), Participant: shown(f.Participant),
				Path: shown(shortPath(f.Path)), PathFull: whole(f.Path),
				Fingerprint: shown(shortFingerprint(f.Fingerprint)), FingerprintFull: whole(f.Fingerprint),
				Date: shown(f.Date), Statut: shown(statutLabel(f.Statut)),
				Verdict: f.verdict(), Signed: f.Signed, Incident: f.Leaks()}
			hf.VerdictLabel = verdictLabels[hf.Verdict]
			var codes []string
			for _, p := range f.Problems {
				sev := "erreur"
				if p.Severity == SevWarning {
					sev = "avertissement"
				}
				hf.Problems = append(hf.Problems, htmlProblem{Line: p.Line, Code: p.Code, Severity: sev, Message: shown(p.Message)})
				if !slices.Contains(codes, p.Code) {
					codes = append(codes, p.Code)
				}
			}
			hf.Codes = strings.Join(codes, " ")
			if !yield(hf) {
				return
			}
		}
	}
	bw := bufio.NewWriter(w)
	if err := htmlTemplate().Execute(bw, d); err != nil {
		return err
	}
	return bw.Flush()
}
