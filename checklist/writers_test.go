package checklist

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/internal/termtext/termtexttest"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/romeo-pret/pret/internal/testenv"
)

// hostileName builds a file or learner name from pieces that break
// spreadsheets, workflow commands, URIs and terminals.
func hostileName(rng *rand.Rand) string {
	pieces := []string{"=HYPERLINK(\"x\")", "+1", "-2", "@SUM(A1)", "\t", "\r", "a,b", "c:d", "%25", "%0A", "::error::", "é", "日本", " ", "\"", "'", "#", "?", "<b>", "\x1b[31m", "\u202e", "\n", "x"}
	var b strings.Builder
	for range 1 + rng.IntN(5) {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

func hostileFiles(rng *rand.Rand) []FileResult {
	var files []FileResult
	for i := range 6 {
		name := hostileName(rng)
		f := FileResult{Path: "rendus/" + name + "/acces.md", Apprenant: name, Valid: i%2 == 0, Fingerprint: "SHA256:" + strings.Repeat("A", 43), Date: "2026-10-16", Statut: "demande"}
		if !f.Valid {
			f.Problems = []Problem{{Code: "missing-date", Severity: SevError, Message: "date " + hostileName(rng), Line: i + 1}}
		} else if i == 2 {
			f.Problems = []Problem{{Code: "late-request", Severity: SevWarning, Message: hostileName(rng)}}
		}
		if i == 4 {
			f.Archive, f.Entry, f.Path = "lot "+name+".zip", name+"/acces.md", "lot "+name+".zip!/"+name+"/acces.md"
		}
		files = append(files, f)
	}
	return files
}

// csvBody checks the csv report opens as a French spreadsheet expects
// it (UTF-8 with one byte order mark, CRLF line ends) and returns it
// without the mark.
func csvBody(t *testing.T, out []byte) string {
	t.Helper()
	body, ok := strings.CutPrefix(string(out), "\ufeff")
	if !ok || strings.HasPrefix(body, "\ufeff") {
		t.Fatalf("csv does not start with one byte order mark: %q", out)
	}
	if strings.Count(body, "\n") != strings.Count(body, "\r\n") || !strings.HasSuffix(body, "\r\n") {
		t.Fatalf("csv line ends are not CRLF: %q", body)
	}
	return body
}

// readCSV reads the csv report back as a spreadsheet would, with its
// default separator.
func readCSV(t *testing.T, out []byte) [][]string {
	t.Helper()
	cr := csv.NewReader(strings.NewReader(csvBody(t, out)))
	cr.Comma = ';'
	rows, err := cr.ReadAll()
	if err != nil {
		t.Fatalf("csv does not read back: %v\n%q", err, out)
	}
	if !slices.Equal(rows[0], CSVHeader) {
		t.Fatalf("csv header %q", rows[0])
	}
	return rows
}

// inCell: the cell shows s as a terminal would, maybe after the quote
// that keeps a spreadsheet from running it (whether one is due, the
// formula checks and TestCSVIsFormulaSafe's table say).
func inCell(cell, s string) bool {
	return cell == termtext.Escape(s) || cell == "'"+termtext.Escape(s)
}

// csvRowOf is the row of the file at path.
func csvRowOf(t *testing.T, rows [][]string, path string) []string {
	t.Helper()
	for _, r := range rows[1:] {
		if inCell(r[3], path) {
			return r
		}
	}
	t.Fatalf("no csv row for %q", path)
	return nil
}

// TestCSVIsFormulaSafe reads the roster back with encoding/csv: one row
// per file, and no cell a spreadsheet would run.
func TestCSVIsFormulaSafe(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 300 {
		files := hostileFiles(rng)
		var buf bytes.Buffer
		if err := WriteFilesReport(&buf, "csv", FilesReport{Files: files}); err != nil {
			t.Fatal(err)
		}
		rows := readCSV(t, buf.Bytes())
		if len(rows) != len(files)+1 {
			t.Fatalf("%d rows for %d files", len(rows), len(files))
		}
		for _, row := range rows[1:] {
			for _, cell := range row {
				if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
					t.Fatalf("cell %q would run as a formula", cell)
				}
				if bad, ok := termtexttest.Safe(cell); !ok {
					t.Fatalf("cell %q holds %q", cell, bad)
				}
			}
		}
		for _, f := range files {
			if row := csvRowOf(t, rows, f.Path); !inCell(row[0], f.Apprenant) {
				t.Fatalf("apprenant %q read back as %q", f.Apprenant, row[0])
			}
		}
	}
	// The case of the issue, a learner named like a formula, and its
	// neighbours, written by hand.
	for name, want := range map[string]string{"=1+1": "'=1+1", "+33 6": "'+33 6", "-x": "'-x", "@SUM(A1)": "'@SUM(A1)",
		"\t=1": `\t=1`, "\r+1": `\r+1`, "Zoé": "Zoé", "a=b": "a=b", "'=1": "'=1", "": ""} {
		var buf bytes.Buffer
		WriteFilesReport(&buf, "csv", FilesReport{Files: []FileResult{{Path: "x/acces.md", Apprenant: name, Valid: true}}})
		if rows := readCSV(t, buf.Bytes()); rows[1][0] != want {
			t.Errorf("%q: %q, want %q", name, rows[1][0], want)
		}
	}
}

// TestCSVForAFrenchSpreadsheet: the leak first, as an incident; then
// the learners as French sorts them (É with E, not after Z); the
// participant number, the signature, the French labels beside the
// codes, the status with its accent; another separator when asked.
func TestCSVForAFrenchSpreadsheet(t *testing.T) {
	files := []FileResult{
		{Path: "r/zoe/acces.md", Apprenant: "Zoé Martin", Participant: "1003", Valid: true, Signed: true, Date: "2026-10-16", Statut: "verifie"},
		{Path: "r/emile/acces.md", Apprenant: "Émile Durand", Participant: "1001", Problems: []Problem{
			{Code: "missing-date", Severity: SevError, Message: "pas de date"},
			{Code: "late-request", Severity: SevWarning, Message: "tard"},
		}},
		{Path: "r/eric/acces.md", Apprenant: "Eric Blanc", Participant: "1002", Valid: true, Email: "eric@exemple.fr"},
		{Path: "r/alice/acces.md", Apprenant: "alice Petit", Participant: "1004", Valid: true},
		{Path: "r/yann/acces.md", Apprenant: "Yann Leroy", Participant: "1005", Problems: []Problem{{Code: "private-key-leak", Severity: SevError, Message: "clé", Line: 3}}},
	}
	var buf bytes.Buffer
	if err := WriteFilesReport(&buf, "csv", FilesReport{Files: files}); err != nil {
		t.Fatal(err)
	}
	rows := readCSV(t, buf.Bytes())
	var names []string
	for _, r := range rows[1:] {
		names = append(names, r[0])
	}
	if want := []string{"Yann Leroy", "alice Petit", "Émile Durand", "Eric Blanc", "Zoé Martin"}; !slices.Equal(names, want) {
		t.Fatalf("order %q, want %q", names, want)
	}
	col := func(name string) int { return slices.Index(CSVHeader, name) }
	leak, emile, eric, zoe := rows[1], rows[3], rows[4], rows[5]
	if !strings.Contains(leak[col("problèmes")], "INCIDENT") || !strings.Contains(leak[col("problèmes")], leakIncident) || leak[col("erreurs")] != "private-key-leak" {
		t.Errorf("leak row %q", leak)
	}
	if emile[col("participant")] != "1001" || emile[col("valide")] != "non" || emile[col("erreurs")] != "missing-date" || emile[col("avertissements")] != "late-request" ||
		emile[col("problèmes")] != "Aucune date de demande ou de vérification du compte ; Demande le jour de la séance ou après" {
		t.Errorf("row %q", emile)
	}
	if zoe[col("signé")] != "oui" || zoe[col("statut")] != "vérifié" || eric[col("signé")] != "non" || eric[col("courriel")] != "eric@exemple.fr" {
		t.Errorf("rows %q, %q", zoe, eric)
	}
	buf.Reset()
	if err := WriteFilesReport(&buf, "csv", FilesReport{Files: files, Comma: ','}); err != nil {
		t.Fatal(err)
	}
	cr := csv.NewReader(strings.NewReader(csvBody(t, buf.Bytes())))
	if got, err := cr.ReadAll(); err != nil || len(got) != len(rows) || !slices.Equal(got[3], emile) {
		t.Fatalf("with ',': %v %q", err, got)
	}
}

// TestGitHubCommandsParseBack reads the workflow commands as the runner
// does: one command per line, every property and message unescaped back
// to what pret meant, one line per problem and one notice.
func TestGitHubCommandsParseBack(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	line := regexp.MustCompile(`^::(error|warning|notice) ([^:]*)::(.*)$`)
	// The runner decodes %25 %0D %0A (and %3A %2C in properties); pret
	// also writes every other control character as %XX so that no log
	// shows it raw. Decoding every %XX must give back exactly what pret
	// meant, whatever the file names hold.
	unescape := func(s string, _ bool) string {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if s[i] == '%' && i+2 < len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
					b.WriteByte(byte(v))
					i += 2
					continue
				}
			}
			b.WriteByte(s[i])
		}
		return b.String()
	}
	for range 300 {
		files := hostileFiles(rng)
		var buf bytes.Buffer
		if err := WriteFilesReport(&buf, "github", FilesReport{Files: files}); err != nil {
			t.Fatal(err)
		}
		problems := 0
		for _, f := range files {
			problems += len(f.Problems)
		}
		sc := bufio.NewScanner(&buf)
		n, notices := 0, 0
		for sc.Scan() {
			m := line.FindStringSubmatch(sc.Text())
			if m == nil {
				t.Fatalf("not one workflow command: %q", sc.Text())
			}
			if m[1] == "notice" {
				notices++
				continue
			}
			props := map[string]string{}
			for _, kv := range strings.Split(m[2], ",") {
				k, v, ok := strings.Cut(kv, "=")
				if !ok {
					t.Fatalf("property %q in %q", kv, sc.Text())
				}
				props[k] = unescape(v, true)
			}
			msg := unescape(m[3], false)
			// Some problem of some file with that path says this.
			found := false
			for _, c := range files {
				want := c.Path
				if c.Archive != "" {
					want = c.Archive
				}
				for _, p := range c.Problems {
					if props["file"] == want && props["title"] == string(p.Code) && strings.HasSuffix(msg, p.Message) {
						found = true
					}
				}
			}
			if !found {
				t.Fatalf("command %q matches no problem of the run", sc.Text())
			}
			n++
		}
		if n != problems || notices != 1 {
			t.Fatalf("%d commands for %d problems, %d notices", n, problems, notices)
		}
	}
}

// TestSARIFValidAgainstTheSchema: whatever the names hold, the log is
// SARIF 2.1.0 as the schema says, every uri a relative reference.
func TestSARIFValidAgainstTheSchema(t *testing.T) {
	path, _ := filepath.Abs(filepath.Join("..", "docs", "schemas", "sarif-schema-2.1.0.json"))
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("the SARIF schema is in the repository (docs/schemas): %v", err)
	}
	doc, err := jsonschema.UnmarshalJSON(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(path, doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile(path)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 200 {
		files := hostileFiles(rng)
		var buf bytes.Buffer
		if err := WriteFilesReport(&buf, "sarif", FilesReport{Files: files, Version: "1.0", Dir: "/depot"}); err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(inst); err != nil {
			t.Fatalf("%v\n%s", err, buf.String())
		}
		var log struct {
			Runs []struct {
				Results []struct {
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string } `json:"artifactLocation"`
						} `json:"physicalLocation"`
					} `json:"locations"`
				} `json:"results"`
			} `json:"runs"`
		}
		json.Unmarshal(buf.Bytes(), &log)
		for _, r := range log.Runs[0].Results {
			u, err := url.Parse(r.Locations[0].PhysicalLocation.ArtifactLocation.URI)
			if err != nil || u.IsAbs() {
				t.Fatalf("uri %q: %v", r.Locations[0].PhysicalLocation.ArtifactLocation.URI, err)
			}
		}
	}
}

// sarifDoc is what the tests read of a SARIF log.
type sarifDoc struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID               string `json:"id"`
					ShortDescription struct{ Text string }
					FullDescription  struct{ Text string }
					Help             struct{ Text string }
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID              string            `json:"ruleId"`
			RuleIndex           int               `json:"ruleIndex"`
			Level               string            `json:"level"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
		} `json:"results"`
	} `json:"runs"`
}

func readSARIF(t *testing.T, files []FileResult) sarifDoc {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteFilesReport(&buf, "sarif", FilesReport{Files: files, Version: "1.0", Dir: "/depot"}); err != nil {
		t.Fatal(err)
	}
	var doc sarifDoc
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestSARIFForCodeScanning: what GitHub code scanning asks of a log
// beyond the schema. Every rule has a French shortDescription,
// fullDescription and help; every result a partialFingerprints value,
// distinct between results, the same from one run to the next and when
// only the problem's line moved (an edit above it), different for
// another file or learner.
func TestSARIFForCodeScanning(t *testing.T) {
	files := []FileResult{
		{Path: "rendus/kim/acces.md", Apprenant: "Kim", Problems: []Problem{
			{Code: "missing-date", Severity: SevError, Message: "pas de date", Line: 2},
			{Code: "bad-date", Severity: SevError, Message: "31 avril", Line: 3},
			{Code: "bad-date", Severity: SevError, Message: "30 février", Line: 4},
		}},
		{Path: "rendus/lou/acces.md", Apprenant: "Lou", Problems: []Problem{{Code: "missing-date", Severity: SevError, Message: "pas de date", Line: 2}}},
		{Path: "rendus.zip!/zoé/acces.md", Archive: "rendus.zip", Entry: "zoé/acces.md", Apprenant: "Zoé", Problems: []Problem{{Code: "bad-public-key", Severity: SevWarning, Message: "?"}}},
	}
	doc := readSARIF(t, files)
	run := doc.Runs[0]
	rules := run.Tool.Driver.Rules
	if len(rules) != len(Codes) {
		t.Fatalf("%d rules for %d codes", len(rules), len(Codes))
	}
	for _, r := range rules {
		if r.ShortDescription.Text == "" || r.FullDescription.Text == "" || r.Help.Text == "" || r.FullDescription.Text == r.ShortDescription.Text {
			t.Errorf("rule %s: %+v", r.ID, r)
		}
	}
	if !strings.Contains(rules[slices.IndexFunc(Codes, func(c CodeInfo) bool { return c.Code == "private-key-leak" })].Help.Text, leakIncident) {
		t.Error("the leak's help does not say the key is compromised")
	}
	seen := map[string]bool{}
	for _, r := range run.Results {
		fp := r.PartialFingerprints["pretProblem/v1"]
		if len(fp) != 32 || seen[fp] || rules[r.RuleIndex].ID != r.RuleID {
			t.Fatalf("result %+v: fingerprint %q (seen %v)", r, fp, seen[fp])
		}
		seen[fp] = true
	}
	if len(run.Results) != 5 {
		t.Fatalf("%d results", len(run.Results))
	}
	moved := slices.Clone(files)
	moved[0].Problems = slices.Clone(files[0].Problems)
	for i := range moved[0].Problems {
		moved[0].Problems[i].Line += 10
	}
	again := readSARIF(t, moved).Runs[0].Results
	for i, r := range run.Results {
		if again[i].PartialFingerprints["pretProblem/v1"] != r.PartialFingerprints["pretProblem/v1"] {
			t.Errorf("result %d: the fingerprint changed when its line moved", i)
		}
	}
}

// leakRun is a run whose private-key leak comes last in the run's order.
func leakRun() []FileResult {
	return []FileResult{
		{Path: "r/ana/acces.md", Apprenant: "Ana", Problems: []Problem{{Code: "missing-date", Severity: SevError, Message: "pas de date"}}},
		{Path: "r/bea/acces.md", Apprenant: "Béa", Valid: true},
		{Path: "r/yann/acces.md", Apprenant: "Yann", Email: "yann@exemple.fr", Problems: []Problem{{Code: "private-key-leak", Severity: SevError, Message: "clé privée dans le fichier (ligne 3)", Line: 3}}},
	}
}

// TestLeakListedFirst: every format that lists files puts the leak
// first, and the ones people read say it is an incident and what to do.
func TestLeakListedFirst(t *testing.T) {
	files := leakRun()
	for _, format := range FileFormats {
		var buf bytes.Buffer
		if err := WriteFilesReport(&buf, format, FilesReport{Name: "pret valider", Files: files, All: true}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		yann, ana := strings.Index(out, "r/yann/acces.md"), strings.Index(out, "r/ana/acces.md")
		if yann < 0 || ana < 0 || yann > ana {
			t.Errorf("%s: the leak is not listed first:\n%s", format, out)
		}
		if format != "json" && format != "junit" && !strings.Contains(out, leakIncident) {
			t.Errorf("%s: no incident:\n%s", format, out)
		}
	}
	var buf bytes.Buffer
	WriteFilesReport(&buf, "texte", FilesReport{Files: files})
	lines := strings.Split(buf.String(), "\n")
	if !strings.HasPrefix(lines[0], "INCIDENT : 1 fichier contient une clé privée : "+leakIncident) ||
		lines[1] != "invalide  Yann (yann@exemple.fr) — r/yann/acces.md" || lines[2] != "    incident : "+leakIncident {
		t.Errorf("texte:\n%s", buf.String())
	}
	buf.Reset()
	WriteFilesReport(&buf, "texte", FilesReport{Files: files[:2]})
	if strings.Contains(buf.String(), "INCIDENT") {
		t.Errorf("an incident without a leak:\n%s", buf.String())
	}
}

// TestGitHubWarningStaysWarning: a warning is ::warning even beside an
// error of the same file; only --strict, failing a file on its warnings
// alone, makes them ::error.
func TestGitHubWarningStaysWarning(t *testing.T) {
	late := Problem{Code: "late-request", Severity: SevWarning, Message: "tard", Line: 2}
	files := []FileResult{
		{Path: "a/acces.md", Problems: []Problem{{Code: "missing-date", Severity: SevError, Message: "pas de date"}, late}},
		{Path: "b/acces.md", Valid: true, Problems: []Problem{late}},
	}
	for _, strict := range []bool{false, true} {
		var buf bytes.Buffer
		if err := WriteFilesReport(&buf, "github", FilesReport{Files: files, Strict: strict}); err != nil {
			t.Fatal(err)
		}
		want := []string{
			"::error file=a/acces.md,title=missing-date::pas de date",
			"::warning file=a/acces.md,line=2,title=late-request::ligne 2 : tard",
			"::warning file=b/acces.md,line=2,title=late-request::ligne 2 : tard",
		}
		if strict {
			// --strict: every warning is an error, beside an error or not
			// (tester finding: it used to depend on the file's other problems).
			want[1] = "::error file=a/acces.md,line=2,title=late-request::ligne 2 : tard"
			want[2] = "::error file=b/acces.md,line=2,title=late-request::ligne 2 : tard"
		}
		if got := strings.Split(buf.String(), "\n")[:3]; !slices.Equal(got, want) {
			t.Fatalf("strict %v: got\n%s\nwant\n%s", strict, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// sarifLog is the whole log writeFilesSARIF writes a result at a time.
type sarifLog struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
	} `json:"runs"`
}

// TestSARIFIsEncoding: the log written a result at a time is the bytes
// writeJSON gives of the log it decodes to, for runs with no problem,
// known and unknown codes, warnings under --strict, archives, learners,
// lines, and strings with every character JSON or the bidi filter treats
// apart (valid UTF-8: invalid bytes read back as U+FFFD, which encodes
// raw).
func TestSARIFIsEncoding(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 7))
	nasty := func() string { return strings.ToValidUTF8(jsonNasty(r), "\ufffd") }
	codes := []string{"missing-date", "late-request", "private-key-leak", "duplicate-fingerprint", "unreadable", "inconnu", ""}
	for c := range testenv.Scaled(500, 2000) {
		var files []FileResult
		for range r.IntN(6) {
			f := FileResult{Path: nasty(), Valid: r.IntN(2) == 0, Apprenant: nasty(), Participant: nasty()}
			if r.IntN(3) == 0 {
				f.Archive, f.Entry = nasty()+".zip", nasty()
			}
			for range r.IntN(4) {
				sev := SevError
				if r.IntN(2) == 0 {
					sev = SevWarning
				}
				code := codes[r.IntN(len(codes))]
				if r.IntN(5) == 0 {
					code = nasty()
				}
				f.Problems = append(f.Problems, Problem{Code: Code(code), Severity: sev, Message: nasty(), Line: r.IntN(4) - 1})
			}
			files = append(files, f)
		}
		var got bytes.Buffer
		if err := WriteFilesReport(&got, "sarif", FilesReport{Files: files, Version: nasty(), Dir: []string{"", "/depot", "/"}[r.IntN(3)]}); err != nil {
			t.Fatal(err)
		}
		var log sarifLog
		if err := json.Unmarshal(got.Bytes(), &log); err != nil {
			t.Fatalf("case %d: %v\n%s", c, err, got.Bytes())
		}
		var want bytes.Buffer
		if err := writeJSON(&want, log); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("case %d:\n got %q\nwant %q", c, got.Bytes(), want.Bytes())
		}
		n := 0
		for _, f := range files {
			n += len(f.Problems)
		}
		if len(log.Runs[0].Results) != n {
			t.Fatalf("case %d: %d results for %d problems", c, len(log.Runs[0].Results), n)
		}
	}
}

// TestJUnitValidForJenkins: the junit reports of pret valider and pret
// verifier, whatever the names hold, are valid against the schema
// Jenkins reads them with (docs/schemas/junit-10.xsd), as xmllint says.
func TestJUnitValidForJenkins(t *testing.T) {
	if os.Getenv("PRET_WINE") == "1" {
		// xmllint is a Linux program; the report's bytes do not depend
		// on the system, and the Linux run checks them.
		t.Skip("under Wine: xmllint runs on Linux, where this test runs too")
	}
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
		write(func(b *bytes.Buffer) error {
			return WriteFilesReport(b, "junit", FilesReport{Name: "pret valider", Files: files, All: true})
		})
		for i := range files {
			files[i].Valid = len(files[i].Problems) == 0 // --strict
		}
		write(func(b *bytes.Buffer) error {
			return WriteFilesReport(b, "junit", FilesReport{Name: "pret valider", Files: files, All: true})
		})
	}
	write(func(b *bytes.Buffer) error {
		return WriteFilesReport(b, "junit", FilesReport{Name: "pret valider", Files: nil, All: true})
	})
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
