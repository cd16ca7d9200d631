package checklist

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
)

func sampleReport() *Report {
	return &Report{Name: "pret verifier", Checks: []Check{
		{ID: "key-present", Status: Pass, Message: "clé présente"},
		{ID: "key-permissions", Status: Fail, Message: "droits 0644", Fix: "chmod 600 ~/.ssh/id_ed25519_romeo"},
		{ID: "session-date", Status: Warn, Message: "la séance est passée", Fix: "rien à faire"},
		{ID: "tools", Status: Skip, Message: "ni sinfo ni kubectl"},
	}}
}

func TestChecksJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteReport(&buf, "json", sampleReport(), Style{}); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Checks  []map[string]string `json:"checks"`
		Summary map[string]int      `json:"summary"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Checks) != 4 || got.Checks[1]["id"] != "key-permissions" || got.Checks[1]["status"] != "fail" || got.Checks[1]["fix"] == "" {
		t.Fatalf("%s", buf.String())
	}
	for _, k := range []string{"id", "status", "message", "fix"} {
		if _, ok := got.Checks[0][k]; !ok {
			t.Errorf("field %s missing", k)
		}
	}
	if got.Summary["pass"] != 1 || got.Summary["fail"] != 1 || got.Summary["warn"] != 1 || got.Summary["skip"] != 1 {
		t.Fatalf("summary %v", got.Summary)
	}
}

type junitDoc struct {
	XMLName xml.Name `xml:"testsuites"`
	Suites  []struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"skipped,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Failures  []struct {
				Type    string `xml:"type,attr"`
				Message string `xml:"message,attr"`
				Body    string `xml:",chardata"`
			} `xml:"failure"`
			Skipped   *struct{} `xml:"skipped"`
			SystemOut string    `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestChecksJUnitParsesBack(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteReport(&buf, "junit", sampleReport(), Style{}); err != nil {
		t.Fatal(err)
	}
	var doc junitDoc
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	s := doc.Suites[0]
	if s.Tests != 4 || len(s.Cases) != 4 || s.Failures != 1 || s.Skipped != 1 {
		t.Fatalf("%+v", s)
	}
	if f := s.Cases[1].Failures; len(f) != 1 || f[0].Type != "key-permissions" {
		t.Fatalf("failure %+v", f)
	}
	if s.Cases[3].Skipped == nil || !strings.Contains(s.Cases[2].SystemOut, "séance est passée") {
		t.Fatalf("%+v", s.Cases)
	}
}

func TestFilesJUnitOneCasePerFile(t *testing.T) {
	files := []FileResult{
		{Path: "a/acces.md", Valid: true, Problems: []Problem{{Code: "late-request", Severity: SevWarning, Message: "tard", Line: 1}}},
		{Path: "b/acces.md", Problems: []Problem{{Code: "missing-date", Severity: SevError, Message: "pas de date"}, {Code: "bad-fingerprint", Severity: SevError, Message: "mal formée", Line: 3}}},
	}
	var buf bytes.Buffer
	WriteFilesReport(&buf, "junit", FilesReport{Name: "pret valider", Files: files, All: true})
	var doc junitDoc
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	cases := doc.Suites[0].Cases
	if len(cases) != 2 || cases[0].Name != "a/acces.md" || len(cases[0].Failures) != 0 || !strings.Contains(cases[0].SystemOut, "late-request") {
		t.Fatalf("%+v", cases)
	}
	// One failure per testcase: the codes in its message, every problem
	// with its line in its body.
	f := cases[1].Failures
	if len(f) != 1 || f[0].Message != "missing-date, bad-fingerprint" || !strings.Contains(f[0].Body, "ligne 3 : bad-fingerprint") || !strings.Contains(f[0].Body, "pas de date") {
		t.Fatalf("%+v", cases[1])
	}
	if doc.Suites[0].Failures != 1 {
		t.Fatalf("failures %d", doc.Suites[0].Failures)
	}
}

// fpA is a well-formed SHA256 fingerprint.
const fpA = "SHA256:bdWv8ASnIXvq7nulAWpJBvplTofkQJ55TUUjbQO+nA0"

func TestFilesJSON(t *testing.T) {
	var buf bytes.Buffer
	WriteFilesReport(&buf, "json", FilesReport{Name: "pret valider", Files: []FileResult{{Path: "x/acces.md", Valid: true, Fingerprint: fpA}}, All: true})
	var got struct {
		Files []struct {
			Path        string            `json:"path"`
			Valid       bool              `json:"valid"`
			Fingerprint string            `json:"fingerprint"`
			Problems    []json.RawMessage `json:"problems"`
		} `json:"files"`
		Summary struct{ Files, Valid, Invalid int } `json:"summary"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Files) != 1 || got.Files[0].Problems == nil || got.Files[0].Fingerprint != fpA || got.Summary != (struct{ Files, Valid, Invalid int }{1, 1, 0}) {
		t.Fatalf("%s", buf.String())
	}
	if !strings.Contains(buf.String(), `"problems": []`) {
		t.Fatal("problems must be an empty list, not null")
	}
	// line is omitted when it does not apply
	buf.Reset()
	WriteFilesReport(&buf, "json", FilesReport{Name: "pret valider", Files: []FileResult{{Path: "y", Problems: []Problem{{Code: "missing-date", Severity: SevError, Message: "m"}}}}, All: true})
	if strings.Contains(buf.String(), `"line"`) {
		t.Fatalf("line without a line number: %s", buf.String())
	}
}

func TestTextColourOnlyWhenAsked(t *testing.T) {
	var plain, colour bytes.Buffer
	WriteReport(&plain, "texte", sampleReport(), Style{})
	WriteReport(&colour, "texte", sampleReport(), Style{Color: true})
	if strings.Contains(plain.String(), "\x1b[") || !strings.Contains(colour.String(), "\x1b[31m") {
		t.Fatalf("plain:\n%s\ncolour:\n%q", plain.String(), colour.String())
	}
	if !strings.Contains(plain.String(), "→ chmod 600") || !strings.Contains(plain.String(), "Résumé : 1 réussi, 1 avertissement, 1 échec, 1 sauté") {
		t.Fatalf("%s", plain.String())
	}
}
