package checklist

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestJUnitValidForJenkins: the junit reports of pret valider and pret
// verifier, whatever the names hold, are valid against the schema
// Jenkins reads them with (docs/schemas/junit-10.xsd), as xmllint says.
func TestJUnitValidForJenkins(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("xmllint is needed on CI (.ci/test installs libxml2-utils): %v", err)
		}
		t.Skip("xmllint absent (Debian: libxml2-utils); .ci/test installs it")
	}
	schema, _ := filepath.Abs(filepath.Join("..", "docs", "schemas", "junit-10.xsd"))
	dir := t.TempDir()
	var docs []string
	write := func(write func(*bytes.Buffer) error) {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "rapport"+string(rune('a'+len(docs)))+".xml")
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		docs = append(docs, p)
	}
	rng := rand.New(rand.NewPCG(21, 22))
	for range 10 {
		files := hostileFiles(rng)
		files[1].Problems = append(files[1].Problems, Problem{Code: "private-key-leak", Severity: SevError, Message: "clé", Line: 2})
		write(func(b *bytes.Buffer) error { return WriteFiles(b, "junit", "pret valider", files, Style{}) })
		for i := range files {
			files[i].Valid = len(files[i].Problems) == 0 // --strict
		}
		write(func(b *bytes.Buffer) error { return WriteFiles(b, "junit", "pret valider", files, Style{}) })
	}
	write(func(b *bytes.Buffer) error { return WriteFiles(b, "junit", "pret valider", nil, Style{}) })
	write(func(b *bytes.Buffer) error { return WriteReport(b, "junit", sampleReport(), Style{}) })
	write(func(b *bytes.Buffer) error { return WriteReport(b, "junit", &Report{Name: "pret verifier"}, Style{}) })
	out, err := exec.Command(xmllint, append([]string{"--noout", "--schema", schema}, docs...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("xmllint: %v\n%s", err, out)
	}
	// The check checks: a suite without its required errors attribute
	// is refused.
	bad := filepath.Join(dir, "faux.xml")
	os.WriteFile(bad, []byte(`<testsuites><testsuite name="x" tests="0" failures="0"/></testsuites>`), 0o644)
	if out, err := exec.Command(xmllint, "--noout", "--schema", schema, bad).CombinedOutput(); err == nil {
		t.Fatalf("xmllint accepted a suite without errors:\n%s", out)
	}
}
