package checklist

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
)

// writeFilesSARIFWhole is the SARIF writer before it streamed its
// results: the whole log built, then encoded. The oracle of
// TestSARIFStreamIsWhole.
func writeFilesSARIFWhole(w io.Writer, r FilesReport) error {
	driver := sarifDriver{Name: "pret", Version: r.Version}
	index := map[string]int{}
	addRule := func(info CodeInfo) int {
		if i, ok := index[info.Code]; ok {
			return i
		}
		rule := sarifRule{ID: info.Code, ShortDescription: sarifMessage{info.Description}}
		rule.DefaultConfiguration.Level = sarifLevel(info.Severity)
		index[info.Code] = len(driver.Rules)
		driver.Rules = append(driver.Rules, rule)
		return index[info.Code]
	}
	for _, c := range Codes {
		addRule(c)
	}
	results := []sarifResult{}
	for f := range r.all() {
		uri := fileURI(r.Dir, f.Path)
		if f.Archive != "" {
			uri = fileURI(r.Dir, f.Archive)
		}
		for _, p := range f.Problems {
			res := sarifResult{
				RuleID:    p.Code,
				RuleIndex: addRule(codeInfo(p.Code, p.Severity)),
				Level:     sarifLevel(p.Severity),
				Message:   sarifMessage{p.Message},
			}
			if !f.Valid && p.Severity == SevWarning && len(f.codes(SevError)) == 0 {
				res.Level = "error"
			}
			var loc sarifLocation
			loc.PhysicalLocation.ArtifactLocation.URI = uri
			if p.Line > 0 && f.Archive == "" {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: p.Line}
			}
			res.Locations = []sarifLocation{loc}
			props := map[string]string{}
			if f.Apprenant != "" {
				props["apprenant"] = f.Apprenant
			}
			if f.Entry != "" {
				props["entry"] = f.Entry
				if p.Line > 0 {
					props["entryLine"] = itoa(p.Line)
				}
			}
			if len(props) > 0 {
				res.Properties = props
			}
			results = append(results, res)
		}
	}
	doc := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{{Tool: sarifTool{driver}, Results: results}},
	}
	return writeJSON(w, doc)
}

// TestSARIFStreamIsWhole: the log written one result at a time is byte
// for byte the log encoded whole, for runs with no problem, known and
// unknown codes, warnings under --strict, archives, learners, lines,
// and strings with every character a JSON encoder or the bidi filter
// treats apart.
func TestSARIFStreamIsWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 7))
	codes := []string{"missing-date", "late-request", "private-key-leak", "duplicate-fingerprint", "unreadable", "inconnu", ""}
	for c := range 3000 {
		var files []FileResult
		for range r.IntN(6) {
			f := FileResult{Path: jsonNasty(r), Valid: r.IntN(2) == 0, Apprenant: jsonNasty(r)}
			if r.IntN(3) == 0 {
				f.Archive, f.Entry = jsonNasty(r)+".zip", jsonNasty(r)
			}
			for range r.IntN(4) {
				sev := SevError
				if r.IntN(2) == 0 {
					sev = SevWarning
				}
				code := codes[r.IntN(len(codes))]
				if r.IntN(5) == 0 {
					code = jsonNasty(r)
				}
				f.Problems = append(f.Problems, Problem{Code: code, Severity: sev, Message: jsonNasty(r), Line: r.IntN(4) - 1})
			}
			files = append(files, f)
		}
		rep := FilesReport{Files: files, Version: jsonNasty(r), Dir: []string{"", "/depot", "/"}[r.IntN(3)]}
		var got, want bytes.Buffer
		if err := writeFilesSARIF(&got, rep); err != nil {
			t.Fatal(err)
		}
		if err := writeFilesSARIFWhole(&want, rep); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("case %d:\n got %q\nwant %q", c, got.Bytes(), want.Bytes())
		}
	}
}
