package checklist

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
)

// SARIF 2.1.0, the subset code scanning reads: one run, the rules, one
// result per problem.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name    string      `json:"name"`
	Version string      `json:"version,omitempty"`
	Rules   []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID     string            `json:"ruleId"`
	RuleIndex  int               `json:"ruleIndex"`
	Level      string            `json:"level"`
	Message    sarifMessage      `json:"message"`
	Locations  []sarifLocation   `json:"locations"`
	Properties map[string]string `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region *sarifRegion `json:"region,omitempty"`
	} `json:"physicalLocation"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

func sarifLevel(sev Severity) string {
	if sev == SevWarning {
		return "warning"
	}
	return "error"
}

// writeFilesSARIF writes the log as encoding/json would write it whole,
// its results one at a time: a run over 100,000 files with problems
// would otherwise hold every result, and its encoding, at once
// (organisateurs.md, Scale: memory grows by a small record per file,
// never with what the files hold). A first pass over the files finds
// the rules, which come before the results.
func writeFilesSARIF(w io.Writer, r FilesReport) error {
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
	found := false
	for f := range r.all() {
		for _, p := range f.Problems {
			addRule(codeInfo(p.Code, p.Severity))
			found = true
		}
	}
	doc := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{{Tool: sarifTool{driver}, Results: []sarifResult{}}},
	}
	if !found {
		return writeJSON(w, doc)
	}
	var hb bytes.Buffer
	he := json.NewEncoder(&hb)
	he.SetIndent("", "  ")
	he.SetEscapeHTML(false) // as writeJSON
	if err := he.Encode(doc); err != nil {
		return err
	}
	head := bytes.TrimSuffix(hb.Bytes(), []byte("\n"))
	// The results are the run's last field, its only empty list.
	const empty = "\"results\": []\n    }\n  ]\n}"
	if !bytes.HasSuffix(head, []byte(empty)) {
		return fmt.Errorf("sarif : forme inattendue du journal")
	}
	return withoutBidi(w, jsonBidi, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		bw.Write(head[:len(head)-len(empty)])
		bw.WriteString(`"results": [`)
		n := 0
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("        ", "  ")
		enc.SetEscapeHTML(false)
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
					res.Level = "error" // --strict: the warnings fail the file
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
				buf.Reset()
				if err := enc.Encode(res); err != nil {
					return err
				}
				if n > 0 {
					bw.WriteByte(',')
				}
				bw.WriteString("\n        ")
				bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
				n++
			}
		}
		bw.WriteString("\n      ]\n    }\n  ]\n}\n")
		return bw.Flush()
	})
}

func itoa(n int) string {
	b := []byte{}
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}

// relativePath gives a path relative to dir when it lies below it (code
// scanning and annotations name files from the repository's root), else
// as it was given.
func relativePath(dir, p string) string {
	if dir == "" {
		return filepath.ToSlash(p)
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, p)
	}
	if rel, err := filepath.Rel(dir, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

// fileURI is relativePath as a URI reference: a relative one when the
// file lies below dir, else a file:// URI.
func fileURI(dir, p string) string {
	rel := relativePath(dir, p)
	if !filepath.IsAbs(filepath.FromSlash(rel)) && !strings.HasPrefix(rel, "../") && rel != ".." {
		u := url.URL{Path: rel}
		return u.String()
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, p)
	}
	abs = filepath.ToSlash(abs)
	if !strings.HasPrefix(abs, "/") {
		abs = "/" + abs // C:/x → /C:/x
	}
	u := url.URL{Scheme: "file", Path: abs}
	return u.String()
}
