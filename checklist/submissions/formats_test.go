package submissions

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/romeo-pret/pret/checklist"
)

// rel gives a result's path in its course: the entry of an archive, or
// the path under the laid-out folder; a folder's without its final "/".
func rel(p string) string {
	if i := strings.Index(p, "!/"); i >= 0 {
		return strings.TrimSuffix(p[i+2:], "/")
	}
	p = "/" + filepath.ToSlash(filepath.Clean(p))
	if i := strings.Index(p, "/dossier/"); i >= 0 {
		return p[i+len("/dossier/"):]
	}
	return p
}

// parsed is what a report says of each file: its error codes and learner.
type parsed struct {
	codes   map[string]string
	learner map[string]string
}

func newParsed() parsed { return parsed{codes: map[string]string{}, learner: map[string]string{}} }

// TestCoursesEveryKindEveryFormat is the organisers' invariant: a Moodle
// archive and a GitHub Classroom folder, laid out in every way they
// arrive, give the same verdicts, learners and duplicate groups, and every
// report format says the same thing once parsed back.
func TestCoursesEveryKindEveryFormat(t *testing.T) {
	sarif := sarifSchema(t)
	for name, c := range map[string]course{"classroom": classroom(), "moodle": moodle()} {
		for kind, args := range c.inputKinds(t) {
			t.Run(name+"/"+kind, func(t *testing.T) {
				results := Validate(args, Options{Rules: testRules, Workers: 3})
				got := newParsed()
				for _, r := range results {
					var errs []string
					for _, p := range r.Problems {
						if p.Severity == checklist.SevError {
							errs = append(errs, string(p.Code))
						}
					}
					k := rel(r.Path)
					if _, dup := got.codes[k]; dup {
						t.Errorf("%s read twice", k)
					}
					got.codes[k] = codesOf(errs)
					got.learner[k] = r.Apprenant
					if r.Valid != (got.codes[k] == "") {
						t.Errorf("%s: valid=%v with errors %q", k, r.Valid, got.codes[k])
					}
				}
				want := c.learner
				if kind == "fichiers" {
					// A file named on the command line: its folder's name,
					// unless Moodle named the learner anywhere on its path
					// (its name, its folder's, a folder above).
					want = map[string]string{}
					for k, l := range c.learner {
						if _, moodle, _ := learnerAt(nil, strings.Split(filepath.ToSlash(k), "/"), level{}, ""); moodle != "" {
							want[k] = l
						} else {
							want[k] = filepath.Base(filepath.Dir(k))
						}
					}
				}
				codes := c.want
				if kind == "fichiers" {
					// Only submissions are named: no learner without one.
					codes = map[string]string{}
					for k, v := range c.want {
						if v != "no-acces-md" {
							codes[k] = v
						}
					}
				}
				compare(t, "résultats", got, codes, want)

				// Reports name files relative to the folder they run in.
				root := filepath.Dir(args[0])
				if i := strings.Index(args[0], string(filepath.Separator)+"dossier"+string(filepath.Separator)); i >= 0 {
					root = args[0][:i]
				}
				for _, format := range checklist.FileFormats {
					var buf bytes.Buffer
					rep := checklist.FilesReport{Name: "pret valider", Files: results, Version: "test", Dir: root}
					if err := checklist.WriteFilesReport(&buf, format, rep); err != nil {
						t.Fatalf("%s: %v", format, err)
					}
					p := parseReport(t, format, buf.Bytes(), results, sarif)
					if format == "texte" {
						// Only files with a problem are listed.
						wantListed := map[string]string{}
						for k, v := range codes {
							if v != "" {
								wantListed[k] = v
							}
						}
						compare(t, format, p, wantListed, nil)
						continue
					}
					compare(t, format, p, codes, want)
				}
			})
		}
	}
}

func compare(t *testing.T, what string, got parsed, codes, learners map[string]string) {
	t.Helper()
	for k, v := range codes {
		g, ok := got.codes[k]
		switch {
		case !ok:
			t.Errorf("%s: %s missing (got %v)", what, k, mapKeys(got.codes))
		case g != v:
			t.Errorf("%s: %s has %q, want %q", what, k, g, v)
		}
	}
	for k := range got.codes {
		if _, ok := codes[k]; !ok {
			t.Errorf("%s: %s should not be there", what, k)
		}
	}
	for k, v := range learners {
		if l, ok := got.learner[k]; ok && l != v {
			t.Errorf("%s: learner of %s is %q, want %q", what, k, l, v)
		}
	}
}

func mapKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// parseReport reads a report back with a parser of its format.
func parseReport(t *testing.T, format string, out []byte, results []checklist.FileResult, sarif *jsonschema.Schema) parsed {
	t.Helper()
	p := newParsed()
	add := func(path, code string) {
		k := rel(path)
		p.codes[k] = codesOf(append(strings.Fields(p.codes[k]), code))
	}
	switch format {
	case "json":
		var doc struct {
			Files []struct {
				Path        string   `json:"path"`
				Apprenant   string   `json:"apprenant"`
				DuplicateOf []string `json:"duplicate_of"`
				Problems    []struct {
					Code     string `json:"code"`
					Severity string `json:"severity"`
					Line     int    `json:"line"`
				} `json:"problems"`
			} `json:"files"`
			Summary checklist.BatchSummary `json:"summary"`
		}
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatal(err)
		}
		for _, f := range doc.Files {
			p.codes[rel(f.Path)] = ""
			p.learner[rel(f.Path)] = f.Apprenant
			for _, pr := range f.Problems {
				if pr.Severity == "error" {
					add(f.Path, pr.Code)
				}
				// Both point at the line that states the fingerprint.
				if (pr.Code == "duplicate-fingerprint" || pr.Code == "fingerprint-mismatch") && pr.Line != 3 {
					t.Errorf("json: %s of %s at line %d, want 3", pr.Code, f.Path, pr.Line)
				}
			}
			if strings.Contains(p.codes[rel(f.Path)], "duplicate-fingerprint") != (len(f.DuplicateOf) > 0) {
				t.Errorf("json: %s duplicate_of %v", f.Path, f.DuplicateOf)
			}
		}
		dups := 0
		for _, g := range doc.Summary.Duplicates {
			dups += len(g)
		}
		if dups != doc.Summary.Codes["duplicate-fingerprint"] {
			t.Errorf("json: duplicate groups %v against codes %v", doc.Summary.Duplicates, doc.Summary.Codes)
		}
	case "junit":
		var doc struct {
			Suites []struct {
				Cases []struct {
					Name      string `xml:"name,attr"`
					Classname string `xml:"classname,attr"`
					Failures  []struct {
						Message string `xml:"message,attr"`
						Body    string `xml:",chardata"`
					} `xml:"failure"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal(out, &doc); err != nil {
			t.Fatal(err)
		}
		for _, c := range doc.Suites[0].Cases {
			k := rel(c.Name)
			p.codes[k], p.learner[k] = "", c.Classname
			if len(c.Failures) > 1 {
				t.Errorf("junit: %d failures for %s", len(c.Failures), c.Name)
			}
			for _, f := range c.Failures {
				if strings.TrimSpace(f.Body) == "" {
					t.Errorf("junit: empty failure body for %s", c.Name)
				}
				for _, code := range strings.Split(f.Message, ", ") {
					add(c.Name, code)
					if !strings.Contains(f.Body, code) {
						t.Errorf("junit: body of %s lacks %s", c.Name, code)
					}
				}
			}
		}
	case "csv":
		cr := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(out, []byte("\ufeff"))))
		cr.Comma = ';'
		rows, err := cr.ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(rows[0], checklist.CSVHeader) {
			t.Fatalf("csv header %v", rows[0])
		}
		col := func(name string) int { return slices.Index(checklist.CSVHeader, name) }
		for _, r := range rows[1:] {
			k := rel(r[col("chemin")])
			errs := r[col("erreurs")]
			p.codes[k], p.learner[k] = codesOf(strings.Fields(errs)), r[col("apprenant")]
			read := errs != "no-acces-md" // a result with no file has no date
			if (r[col("valide")] == "oui") != (errs == "") || read && (r[col("date")] != "2026-10-16" || r[col("statut")] != "demande") {
				t.Errorf("csv row %v", r)
			}
		}
	case "sarif":
		var doc any
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatal(err)
		}
		if err := sarif.Validate(doc); err != nil {
			t.Fatalf("sarif does not match the schema: %v", err)
		}
		var log struct {
			Runs []struct {
				Results []struct {
					RuleID    string `json:"ruleId"`
					Level     string `json:"level"`
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct {
								URI string `json:"uri"`
							} `json:"artifactLocation"`
						} `json:"physicalLocation"`
					} `json:"locations"`
					Properties map[string]string `json:"properties"`
				} `json:"results"`
			} `json:"runs"`
		}
		json.Unmarshal(out, &log)
		for _, r := range results {
			p.codes[rel(r.Path)] = ""
		}
		for _, r := range log.Runs[0].Results {
			uri, err := url.PathUnescape(r.Locations[0].PhysicalLocation.ArtifactLocation.URI)
			if err != nil || filepath.IsAbs(uri) {
				t.Fatalf("sarif uri %q", r.Locations[0].PhysicalLocation.ArtifactLocation.URI)
			}
			if e := r.Properties["entry"]; e != "" {
				uri += "!/" + e
			}
			if r.Level == "error" {
				add(uri, r.RuleID)
			}
			p.learner[rel(uri)] = r.Properties["apprenant"]
		}
	case "github":
		for _, r := range results {
			p.codes[rel(r.Path)] = ""
		}
		cmd := regexp.MustCompile(`^::(error|warning|notice) ([^:]*)::(.*)$`)
		sc := bufio.NewScanner(bytes.NewReader(out))
		notices := 0
		for sc.Scan() {
			m := cmd.FindStringSubmatch(sc.Text())
			if m == nil {
				t.Fatalf("github: not a workflow command: %q", sc.Text())
			}
			props := map[string]string{}
			for _, kv := range strings.Split(m[2], ",") {
				k, v, _ := strings.Cut(kv, "=")
				props[k] = ghUnescape(v, true)
			}
			msg := ghUnescape(m[3], false)
			if m[1] == "notice" {
				notices++
				continue
			}
			file := props["file"]
			// An archive entry: the file is the archive, the message
			// starts with the learner and the entry.
			if strings.HasSuffix(strings.ToLower(file), ".zip") {
				for _, r := range results {
					if r.Entry != "" && strings.HasPrefix(msg, r.Apprenant+" — "+r.Entry+" : ") {
						file = r.Path
					}
				}
			}
			if m[1] == "error" {
				add(file, props["title"])
			}
		}
		if notices != 1 {
			t.Errorf("github: %d notices", notices)
		}
	case "html":
		// The learner's name opens its row header; the path cell sorts by the
		// whole path (it may be shown short).
		row := regexp.MustCompile(`<tr class="([a-z]+)(?: incident)?" data-verdict="[a-z]+" data-codes="([^"]*)"><th scope="row">([^<]*).*?</th><td data-sort="([^"]*)">`)
		for _, m := range row.FindAllStringSubmatch(string(out), -1) {
			path := html.UnescapeString(m[4])
			k := rel(path)
			p.codes[k] = codesOf(strings.Fields(html.UnescapeString(m[2])))
			p.learner[k] = strings.TrimSpace(html.UnescapeString(m[3]))
		}
	case "texte":
		header := regexp.MustCompile(`^(invalide|avertissement|valide) +(.*) — (.*)$`)
		problem := regexp.MustCompile(`^    (?:ligne \d+ : )?([a-z-]+) \((erreur|avertissement)\) : `)
		current := ""
		for _, line := range strings.Split(string(out), "\n") {
			if m := header.FindStringSubmatch(line); m != nil {
				current = m[3]
				p.codes[rel(current)], p.learner[rel(current)] = "", m[2]
				continue
			}
			if m := problem.FindStringSubmatch(line); m != nil && current != "" && m[2] == "erreur" {
				add(current, m[1])
			}
			if strings.HasPrefix(line, "Résumé") {
				current = ""
			}
		}
	default:
		t.Fatalf("no parser for %s", format)
	}
	return p
}

// ghUnescape undoes the runner's escapes.
func ghUnescape(s string, property bool) string {
	pairs := []string{"%0D", "\r", "%0A", "\n"}
	if property {
		pairs = append(pairs, "%3A", ":", "%2C", ",")
	}
	pairs = append(pairs, "%25", "%")
	return strings.NewReplacer(pairs...).Replace(s)
}

// sarifSchema compiles the SARIF 2.1.0 schema from docs/schemas,
// found from the repository's root as CI lays it out.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "..", "docs", "schemas", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("the SARIF schema must be in the repository (docs/schemas): %v", err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(path, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
