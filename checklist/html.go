package checklist

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"html/template"
	"io"
	"iter"
	"strings"
	"sync"
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
	Name       []bidiPart
	Title      string
	Summary    BatchSummary
	Duplicates [][][]bidiPart
	Codes      []htmlCode
	// Files are made one at a time as the template ranges over them:
	// a page of 100,000 rows is never held as rows (organisateurs.md,
	// Scale).
	Files  iter.Seq[htmlFile]
	Policy string
	Style  template.CSS
	Script template.JS
}

type htmlCode struct {
	Code, Description, Severity string
	Files, Total                int
}

// Strings from files and file names are []bidiPart: the template shows
// their bidi controls as markers (bidi.go).
type htmlFile struct {
	Apprenant, Path, Date, Statut, Fingerprint []bidiPart
	Verdict, VerdictLabel                      string
	Codes                                      string // space-separated, for the filter
	Problems                                   []htmlProblem
}

type htmlProblem struct {
	Line           int
	Code, Severity string
	Message        []bidiPart
}

// shown is a string from a file as the page holds it: valid UTF-8
// without the controls XML forbids (XMLText), as in the JUnit report,
// and its bidi controls apart.
func shown(s string) []bidiPart { return bidiParts(XMLText(s)) }

var verdictLabels = map[string]string{"valide": "valide", "avertissement": "valide, avec avertissements", "invalide": "invalide"}

// writeFilesHTML writes one self-contained page. html/template escapes
// every string in its context; nothing from a file is ever marked safe.
func writeFilesHTML(w io.Writer, r FilesReport) error {
	s := summarize(r.all())
	name := r.Name
	if name == "" {
		name = "pret valider"
	}
	d := htmlData{Name: shown(name), Title: bidiText(XMLText(name)), Summary: s, Policy: htmlPolicy(), Style: template.CSS(reportCSS), Script: template.JS(reportJS)}
	for _, g := range s.Duplicates {
		var paths [][]bidiPart
		for _, p := range g {
			paths = append(paths, shown(p))
		}
		d.Duplicates = append(d.Duplicates, paths)
	}
	for _, c := range s.byFrequency(r.all()) {
		info := codeInfo(c.Code, c.Severity)
		d.Codes = append(d.Codes, htmlCode{Code: c.Code, Description: info.Label, Severity: string(c.Severity), Files: c.Files, Total: s.Files})
	}
	d.Files = func(yield func(htmlFile) bool) {
		for f := range r.all() {
			hf := htmlFile{Apprenant: shown(f.Apprenant), Path: shown(f.Path), Verdict: f.verdict(), Date: shown(f.Date), Statut: shown(f.Statut), Fingerprint: shown(f.Fingerprint)}
			hf.VerdictLabel = verdictLabels[hf.Verdict]
			var codes []string
			for _, p := range f.Problems {
				sev := "erreur"
				if p.Severity == SevWarning {
					sev = "avertissement"
				}
				hf.Problems = append(hf.Problems, htmlProblem{Line: p.Line, Code: p.Code, Severity: sev, Message: shown(p.Message)})
				if !contains(codes, p.Code) {
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
