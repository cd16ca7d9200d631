package submissions

import (
	"archive/zip"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/checklist"
)

// entry is one file of a fixture: its content, its modification time
// (zero: none), and its kind (0 a file; fs.ModeSymlink, fs.ModeDir, or
// fs.ModeNamedPipe on disk).
type entry struct {
	body string
	mod  time.Time
	kind fs.FileMode
}

// layout lays files out under dir on disk.
func layout(t *testing.T, dir string, files map[string]entry) {
	t.Helper()
	for rel, e := range files {
		p := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(rel, "/")))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch {
		case strings.HasSuffix(rel, "/") || e.kind == fs.ModeDir:
			err = os.MkdirAll(p, 0o755)
		case e.kind == fs.ModeSymlink:
			err = os.Symlink(e.body, p)
		case e.kind == fs.ModeNamedPipe:
			err = mkfifo(p)
		default:
			err = os.WriteFile(p, []byte(e.body), 0o644)
			if err == nil && !e.mod.IsZero() {
				err = os.Chtimes(p, e.mod, e.mod)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// zipLayout is files as a zip archive, with their times and kinds
// (a FIFO has no zip form and is left out).
func zipLayout(t *testing.T, files map[string]entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range slices.Sorted(maps.Keys(files)) {
		e := files[n]
		if e.kind == fs.ModeNamedPipe {
			continue
		}
		h := &zip.FileHeader{Name: n, Method: zip.Deflate, Modified: e.mod}
		switch e.kind {
		case fs.ModeSymlink:
			h.SetMode(fs.ModeSymlink | 0o777)
		case fs.ModeDir:
			h.Name = strings.TrimSuffix(n, "/") + "/"
			h.SetMode(fs.ModeDir | 0o755)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(h.Name, "/") {
			w.Write([]byte(e.body))
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// bothWays lays files out as a folder and as a zip, and returns the
// argument of each with the prefix its results' paths start with.
func bothWays(t *testing.T, files map[string]entry) map[string][2]string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "rendus")
	layout(t, dir, files)
	zp := filepath.Join(root, "rendus.zip")
	if err := os.WriteFile(zp, zipLayout(t, files), 0o644); err != nil {
		t.Fatal(err)
	}
	return map[string][2]string{"dossier": {dir, dir + string(filepath.Separator)}, "zip": {zp, zp + "!/"}}
}

// byPath is results keyed by their path relative to prefix, written
// with "/"; a folder's ends in "/" (as an archive's folder is named).
func byPath(results []checklist.FileResult, prefix string) map[string]checklist.FileResult {
	out := map[string]checklist.FileResult{}
	for _, r := range results {
		k := filepath.ToSlash(strings.TrimPrefix(r.Path, prefix))
		if st, err := os.Stat(r.Path); err == nil && st.IsDir() {
			k += "/"
		}
		out[k] = r
	}
	return out
}

// TestNameChosenInsideIsNotTheLearner: Alice copies Bob's acces.md into
// her Moodle folder under his Moodle name (as a file, or as a folder):
// the copy is hers, so both files state one key for two learners, and
// both are duplicate-fingerprint; her row says the file is named after
// Bob's folder, so the organiser sees who copied whom, and Bob's does not.
func TestNameChosenInsideIsNotTheLearner(t *testing.T) {
	bob := page(newKey(41).fp, false)
	for _, hidden := range []string{
		"Dupont Alice_123_assignsubmission_file_/Martin Bob_456_assignsubmission_file_acces.md",
		"Dupont Alice_123_assignsubmission_file_/Martin Bob_456_assignsubmission_file_/acces.md",
	} {
		files := map[string]entry{
			hidden: {body: bob},
			"Martin Bob_456_assignsubmission_file_/acces.md": {body: bob},
		}
		for kind, arg := range bothWays(t, files) {
			res := byPath(Validate([]string{arg[0]}, Options{Rules: testRules}), arg[1])
			if len(res) != 2 {
				t.Fatalf("%s %s: %d results, want 2: %v", kind, hidden, len(res), mapKeys(res))
			}
			alice, bobs := res[hidden], res["Martin Bob_456_assignsubmission_file_/acces.md"]
			if alice.Apprenant != "Dupont Alice" || alice.Participant != "123" || bobs.Apprenant != "Martin Bob" || bobs.Participant != "456" {
				t.Errorf("%s: learners %q (%s) and %q (%s)", kind, alice.Apprenant, alice.Participant, bobs.Apprenant, bobs.Participant)
			}
			for _, r := range []checklist.FileResult{alice, bobs} {
				if r.Valid || codesOfResult(r) != "duplicate-fingerprint" {
					t.Errorf("%s %s: valid %v, %s", kind, r.Path, r.Valid, codesOfResult(r))
				}
			}
			const note = "fichier nommé d'après le dossier de Martin Bob (participant 456), dans le rendu de Dupont Alice"
			if !strings.Contains(alice.Problems[0].Message, note) || strings.Contains(bobs.Problems[0].Message, "nommé d'après") {
				t.Errorf("%s: Alice %q, Bob %q", kind, alice.Problems[0].Message, bobs.Problems[0].Message)
			}
		}
	}
}

// TestEveryMoodleLearnerHasAResult: a Moodle learner who handed in no
// acces.md (a Word, PDF or OpenDocument file, acces.txt, acces.md.txt,
// a README.md, an online text that shows no text, an empty folder) gets
// one result, no-acces-md, an error that names what she sent; one who sent
// an acces.md besides gets its verdict only. Folders and flat names, on
// disk and in a zip. An online text is exported as Moodle does: its
// onlinetext.html beside its pictures (outside tester, B3).
func TestEveryMoodleLearnerHasAResult(t *testing.T) {
	good := page(newKey(42).fp, false)
	picture := editor(`<img src="image.png" alt="">`)
	files := map[string]entry{
		"Roux Emma_3_assignsubmission_onlinetext_/onlinetext.html":   {body: picture},
		"Noir Inès_8_assignsubmission_onlinetext_onlinetext.html":    {body: picture},
		"Gris Karim_10_assignsubmission_onlinetext_/onlinetext.html": {body: picture},
		"Sable Marc_12_assignsubmission_onlinetext_/onlinetext.html": {body: editor(`<img src="@@PLUGINFILE@@/photo%20cle.png">`)},
		"Lin Nour_13_assignsubmission_onlinetext_/onlinetext.html":   {},
		"Rose Olga_14_assignsubmission_onlinetext_onlinetext.html":   {body: "<p><br></p>"},
		"Dupont Alice_1_assignsubmission_file_/acces.docx":           {body: "PK"},
		"Martin Bob_2_assignsubmission_file_/acces.txt":              {body: good},
		"Martin Bob_2_assignsubmission_file_/README.md":              {body: "# moi"},
		"Roux Emma_3_assignsubmission_onlinetext_/image.png":         {body: "PNG"}, // her online text's picture: onlinetext.html is read (onlinetext_test.go)
		"Petit Denis_4_assignsubmission_file_/":                      {kind: fs.ModeDir},
		"Leroy Félix_5_assignsubmission_file_acces.md.txt":           {body: good},
		"Moreau Gaëlle_6_assignsubmission_file_acces.pdf":            {body: "%PDF"},
		"Blanc Hugo_7_assignsubmission_file_acces.odt":               {body: "PK"},
		"Noir Inès_8_assignsubmission_onlinetext_image.png":          {body: "PNG"},
		"Vert Jules_9_assignsubmission_file_/acces.md":               {body: good},
		"Vert Jules_9_assignsubmission_file_/acces.docx":             {body: "PK"},
		"Vert Jules_9_assignsubmission_onlinetext_/image.png":        {body: "PNG"},
		"Gris Karim_10_assignsubmission_file_/acces.docx":            {body: "PK"},
		"Gris Karim_10_assignsubmission_onlinetext_/image.png":       {body: "PNG"},
		"Brun Léa_11_assignsubmission_file_/a.txt":                   {body: "x"},
		"Brun Léa_11_assignsubmission_file_/b.txt":                   {body: "x"},
		"Brun Léa_11_assignsubmission_file_/c.txt":                   {body: "x"},
		"Brun Léa_11_assignsubmission_file_/d.txt":                   {body: "x"},
		"Brun Léa_11_assignsubmission_file_/sous/e.txt":              {body: "x"},
		"Brun Léa_11_assignsubmission_file_/sous/f.txt":              {body: "x"},
	}
	want := map[string]struct{ learner, got string }{
		"Dupont Alice_1_assignsubmission_file_/":                   {"Dupont Alice", "(acces.docx reçu)"},
		"Martin Bob_2_assignsubmission_file_/":                     {"Martin Bob", "(README.md, acces.txt reçus)"},
		"Roux Emma_3_assignsubmission_onlinetext_/":                {"Roux Emma", "(texte en ligne (image.png) reçu)"},
		"Petit Denis_4_assignsubmission_file_/":                    {"Petit Denis", "qui est vide"},
		"Leroy Félix_5_assignsubmission_file_acces.md.txt":         {"Leroy Félix", "(acces.md.txt reçu)"},
		"Moreau Gaëlle_6_assignsubmission_file_acces.pdf":          {"Moreau Gaëlle", "(acces.pdf reçu)"},
		"Blanc Hugo_7_assignsubmission_file_acces.odt":             {"Blanc Hugo", "(acces.odt reçu)"},
		"Noir Inès_8_assignsubmission_onlinetext_image.png":        {"Noir Inès", "(texte en ligne (image.png) reçu)"},
		"Gris Karim_10_assignsubmission_file_/":                    {"Gris Karim", "(acces.docx, texte en ligne (image.png) reçus)"},
		"Brun Léa_11_assignsubmission_file_/":                      {"Brun Léa", "(a.txt, b.txt, c.txt, d.txt et 2 autres reçus)"},
		"Sable Marc_12_assignsubmission_onlinetext_/":              {"Sable Marc", "(texte en ligne (photo cle.png) reçu)"},
		"Lin Nour_13_assignsubmission_onlinetext_/":                {"Lin Nour", "(texte en ligne (onlinetext.html) reçu)"},
		"Rose Olga_14_assignsubmission_onlinetext_onlinetext.html": {"Rose Olga", "(texte en ligne (onlinetext.html) reçu)"},
	}
	// The same under a wrapper folder: the result is still at the
	// learner's folder, not at the wrapper.
	wrapped := map[string]entry{}
	for name, e := range files {
		wrapped["Export/"+name] = e
	}
	for _, wrap := range []string{"", "Export/"} {
		in := files
		if wrap != "" {
			in = wrapped
		}
		everyLearnerHasAResult(t, in, wrap, want)
	}
}

func everyLearnerHasAResult(t *testing.T, files map[string]entry, wrap string, wantAt map[string]struct{ learner, got string }) {
	t.Helper()
	want := map[string]struct{ learner, got string }{}
	for path, w := range wantAt {
		want[wrap+path] = w
	}
	for kind, arg := range bothWays(t, files) {
		results := Validate([]string{arg[0]}, Options{Rules: testRules})
		res := byPath(results, arg[1])
		jules := res[wrap+"Vert Jules_9_assignsubmission_file_/acces.md"]
		if !jules.Valid || jules.Apprenant != "Vert Jules" {
			t.Errorf("%s: the learner with an acces.md: %+v", kind, jules)
		}
		if len(res) != len(want)+1 {
			t.Errorf("%s: %d results, want %d: %v", kind, len(res), len(want)+1, mapKeys(res))
		}
		for path, w := range want {
			r, ok := res[path]
			if !ok {
				t.Errorf("%s: no result at %s: %v", kind, path, mapKeys(res))
				continue
			}
			if r.Valid || len(r.Problems) != 1 || r.Problems[0].Code != "no-acces-md" || r.Problems[0].Severity != checklist.SevError ||
				r.Apprenant != w.learner || !strings.Contains(r.Problems[0].Message, w.got) {
				t.Errorf("%s %s: %s %+v, want no-acces-md naming %q", kind, path, r.Apprenant, r.Problems, w.got)
			}
			if kind == "zip" && (r.Archive != arg[0] || r.Path != r.Archive+"!/"+r.Entry) {
				t.Errorf("%s: archive %q entry %q", r.Path, r.Archive, r.Entry)
			}
		}
		// Counted in the summary as any problem is.
		var out bytes.Buffer
		if err := checklist.WriteFilesReport(&out, "json", checklist.FilesReport{Name: "pret valider", Files: results}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), fmt.Sprintf(`"no-acces-md": %d`, len(want))) {
			t.Errorf("%s: the summary does not count %d no-acces-md:\n%s", kind, len(want), out.String())
		}
	}
}

// TestOneResultPerLearnerFromTheLatest: a learner's several acces.md
// (a copy, a second attempt, one in a subfolder) are one result, from
// the one modified last, whatever the names, with the others listed.
func TestOneResultPerLearnerFromTheLatest(t *testing.T) {
	old, recent := time.Date(2026, 10, 1, 8, 0, 0, 0, time.UTC), time.Date(2026, 10, 15, 8, 0, 0, 0, time.UTC)
	broken, good := page(newKey(43).fp, true), page(newKey(43).fp, false)
	const alice = "Dupont Alice_1_assignsubmission_file_/"
	files := map[string]entry{
		alice + "acces.md":                                {body: broken, mod: old},
		alice + "acces (1).md":                            {body: good, mod: recent}, // the latest, though first by name
		alice + "v1/acces.md":                             {body: broken, mod: old},
		"Martin Bob_2_assignsubmission_file_acces.md":     {body: page(newKey(44).fp, false), mod: recent},
		"Martin Bob_2_assignsubmission_file_acces (1).md": {body: page(newKey(44).fp, true), mod: old},
	}
	for kind, arg := range bothWays(t, files) {
		res := byPath(Validate([]string{arg[0]}, Options{Rules: testRules}), arg[1])
		if len(res) != 2 {
			t.Fatalf("%s: %d results, want one per learner: %v", kind, len(res), mapKeys(res))
		}
		a := res[alice+"acces (1).md"]
		wantOthers := []string{arg[1] + filepath.FromSlash(alice+"acces.md"), arg[1] + filepath.FromSlash(alice+"v1/acces.md")}
		if kind == "zip" {
			wantOthers = []string{arg[1] + alice + "acces.md", arg[1] + alice + "v1/acces.md"}
		}
		if !a.Valid || !slices.Equal(a.Others, wantOthers) {
			t.Errorf("%s: Alice's result %+v, others %q, want %q", kind, a.Problems, a.Others, wantOthers)
		}
		b := res["Martin Bob_2_assignsubmission_file_acces.md"]
		if !b.Valid || len(b.Others) != 1 || !strings.HasSuffix(b.Others[0], "Martin Bob_2_assignsubmission_file_acces (1).md") {
			t.Errorf("%s: Bob's result %+v, others %q", kind, b.Problems, b.Others)
		}
	}
}

// TestLeakInAnOlderCopy: a private key in a copy that the learner's
// result only lists is reported on that result: the key is compromised
// whichever copy is graded (outside tester, stop 28). No piece of it is quoted.
func TestLeakInAnOlderCopy(t *testing.T) {
	old, recent := time.Date(2026, 10, 1, 8, 0, 0, 0, time.UTC), time.Date(2026, 10, 15, 8, 0, 0, 0, time.UTC)
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	key := string(pem.EncodeToMemory(block))
	const alice = "Dupont Alice_1_assignsubmission_file_/"
	files := map[string]entry{
		alice + "acces.md":     {body: page(newKey(46).fp, false) + "\n" + key, mod: old},
		alice + "acces (1).md": {body: page(newKey(46).fp, false), mod: recent},
	}
	for kind, arg := range bothWays(t, files) {
		res := byPath(Validate([]string{arg[0]}, Options{Rules: testRules}), arg[1])
		a := res[alice+"acces (1).md"]
		if a.Valid || len(a.Problems) != 1 || a.Problems[0].Code != "private-key-leak" || !strings.Contains(a.Problems[0].Message, "acces.md, une autre copie") {
			t.Fatalf("%s: %+v", kind, a)
		}
		for _, line := range strings.Split(key, "\n")[1:4] {
			if strings.Contains(a.Problems[0].Message, line[:16]) {
				t.Fatalf("%s: the message quotes the key: %q", kind, a.Problems[0].Message)
			}
		}
	}
}

// TestPubBesideNotAFile: a .pub beside acces.md that is a link, a
// folder or a FIFO is reported as bad-public-key, never passed over and
// never opened.
func TestPubBesideNotAFile(t *testing.T) {
	k := newKey(45)
	for _, kind := range []fs.FileMode{fs.ModeSymlink, fs.ModeDir, fs.ModeNamedPipe} {
		if kind == fs.ModeNamedPipe && !haveFIFO {
			continue
		}
		files := map[string]entry{
			"etu/acces.md":             {body: page(k.fp, false)},
			"etu/vraie.pub":            {body: string(k.pub)},
			"etu/id_ed25519_romeo.pub": {body: "vraie.pub", kind: kind},
		}
		for how, arg := range bothWays(t, files) {
			if how == "zip" && kind == fs.ModeNamedPipe {
				continue // no FIFO in a zip
			}
			res := byPath(Validate([]string{arg[0]}, Options{Rules: testRules}), arg[1])
			r := res["etu/acces.md"]
			if r.Valid || !strings.Contains(codesOfResult(r), "bad-public-key") {
				t.Errorf("%s, .pub a %v: %+v", how, kind, r.Problems)
			}
		}
	}
}

// TestPubFolderImpliedInZip: a zip that holds "etu/id_ed25519_romeo.pub/x"
// with no entry for the folder itself still has a folder where the key
// should be: bad-public-key, as on disk (tester finding).
func TestPubFolderImpliedInZip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "rendus.zip")
	data := zipLayout(t, map[string]entry{"etu/acces.md": {body: page(newKey(49).fp, false)}, "etu/id_ed25519_romeo.pub/x": {body: "rien"}})
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range Validate([]string{p}, Options{Rules: testRules}) {
		if strings.HasSuffix(r.Path, "etu/acces.md") {
			found = true
			if r.Valid || !strings.Contains(codesOfResult(r), "bad-public-key") {
				t.Errorf("%s: %+v", r.Path, r.Problems)
			}
		}
	}
	if !found {
		t.Fatal("no result for etu/acces.md")
	}
}

// TestZipEntriesRefused: an entry flagged encrypted is unreadable (its
// bytes are never taken for text), and one whose name holds a NUL is
// reported, not skipped.
func TestZipEntriesRefused(t *testing.T) {
	good := page(newKey(46).fp, false)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, h := range []*zip.FileHeader{
		{Name: "chiffre/acces.md", Method: zip.Store, Flags: 0x1},
		{Name: "nul/acces.md\x00.txt", Method: zip.Deflate},
		{Name: "nul2/acc\x00es.md", Method: zip.Deflate},
		{Name: "bon/acces.md", Method: zip.Deflate},
	} {
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(good))
	}
	zw.Close()
	zp := filepath.Join(t.TempDir(), "lot.zip")
	os.WriteFile(zp, buf.Bytes(), 0o644)
	res := byPath(Validate([]string{zp}, Options{Rules: testRules}), zp+"!/")
	if len(res) != 4 || !res["bon/acces.md"].Valid {
		t.Fatalf("%d results: %v", len(res), mapKeys(res))
	}
	for name, want := range map[string]string{"chiffre/acces.md": "chiffrée", "nul/acces.md\x00.txt": "caractère nul", "nul2/acc\x00es.md": "caractère nul"} {
		r := res[name]
		if r.Valid || codesOfResult(r) != "unreadable" || !strings.Contains(r.Problems[0].Message, want) {
			t.Errorf("%q: %+v", name, r.Problems)
		}
	}
}

// TestPubInflatedOncePerArchive: one .pub beside thousands of entries
// is inflated once and charged once to the archive's budget: charged
// per entry, these 64 KiB would exhaust it and the last entries would
// be refused as a zip bomb.
func TestPubInflatedOncePerArchive(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	k := newKey(47)
	pub := string(k.pub) + strings.Repeat("#", 60<<10) // a comment line: still a key file
	const n = 1500
	files := map[string]entry{"id_ed25519_romeo.pub": {body: pub}}
	for i := range n {
		files["lot/"+strings.Repeat("x", i%7)+"-"+string(rune('a'+i%26))+"-"+strconv.Itoa(i)+"-acces.md"] = entry{body: page(k.fp, false)}
	}
	files["lot/id_ed25519_romeo.pub"] = entry{body: pub}
	data := zipLayout(t, files)
	if perEntry := int64(n) * int64(len(pub)); perEntry < archiveBudget(int64(len(data))) {
		t.Fatalf("the fixture does not exceed the budget if charged per entry: %d < %d", perEntry, archiveBudget(int64(len(data))))
	}
	zp := filepath.Join(t.TempDir(), "lot.zip")
	os.WriteFile(zp, data, 0o644)
	results := Validate([]string{zp}, Options{Rules: testRules})
	if len(results) != n {
		t.Fatalf("%d results, want %d", len(results), n)
	}
	for _, r := range results {
		if len(r.Problems) > 0 && !strings.Contains(codesOfResult(r), "duplicate-fingerprint") {
			t.Fatalf("%s: %+v", r.Path, r.Problems)
		}
	}
}

// TestSharedKeyTailSharesNothingWritable: past the first maxDuplicateOf
// files of one key, the files share one problem list; a problem appended
// to one file's (as --strict or a writer could) reaches no other.
func TestSharedKeyTailSharesNothingWritable(t *testing.T) {
	fp := newKey(48).fp
	files := map[string]entry{}
	for i := range 3 * maxDuplicateOf {
		files["etu"+strconv.Itoa(100+i)+"/acces.md"] = entry{body: page(fp, false)}
	}
	dir := t.TempDir()
	layout(t, dir, files)
	run := Read([]string{dir}, Options{Rules: testRules})
	if run.Len() != len(files) {
		t.Fatalf("%d results", run.Len())
	}
	for i := range run.Len() {
		r := run.At(i)
		if codesOfResult(r) != "duplicate-fingerprint" || r.DuplicateCount != len(files)-1 || len(r.DuplicateOf) != maxDuplicateOf {
			t.Fatalf("%s: %s, %d others (%d listed)", r.Path, codesOfResult(r), r.DuplicateCount, len(r.DuplicateOf))
		}
		_ = append(r.Problems, checklist.Problem{Code: "x"})
	}
	for i := range run.Len() {
		r := run.At(i)
		if all := r.Problems[:cap(r.Problems)]; len(r.Problems) != 1 || slices.ContainsFunc(all, func(p checklist.Problem) bool { return p.Code == "x" }) {
			t.Fatalf("%s: an append to another file's problems reached it: %+v", r.Path, all)
		}
	}
}

// TestLearnerArchiveTakesItsOwnTime: an archive in a learner's folder is
// hers, and so are the times of its entries: its files are as recent as
// the archive itself, so the same tree reads alike as a folder (where
// the archive is opened) and in a zip export (where it is not).
func TestLearnerArchiveTakesItsOwnTime(t *testing.T) {
	dir := t.TempDir()
	alice := filepath.Join(dir, "Dupont Alice_1_assignsubmission_file_")
	if err := os.MkdirAll(alice, 0o755); err != nil {
		t.Fatal(err)
	}
	var inner bytes.Buffer
	zw := zip.NewWriter(&inner)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "acces.md", Method: zip.Deflate, Modified: time.Date(2026, 10, 3, 8, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(page(newKey(47).fp, true)))
	zw.Close()
	for name, f := range map[string]struct {
		data string
		mod  time.Time
	}{
		"acces.md":    {page(newKey(48).fp, false), time.Date(2026, 10, 2, 8, 0, 0, 0, time.UTC)},
		"travail.zip": {inner.String(), time.Date(2026, 10, 1, 8, 0, 0, 0, time.UTC)},
	} {
		p := filepath.Join(alice, name)
		if err := os.WriteFile(p, []byte(f.data), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, f.mod, f.mod); err != nil {
			t.Fatal(err)
		}
	}
	var got []checklist.FileResult
	for _, r := range Validate([]string{dir}, Options{Rules: testRules}) {
		if r.Apprenant == "Dupont Alice" {
			got = append(got, r)
		}
	}
	if len(got) != 1 || !got[0].Valid || filepath.Base(got[0].Path) != "acces.md" || got[0].Archive != "" {
		t.Fatalf("Alice: %+v, want one valid result from acces.md", got)
	}
	if len(got[0].Others) != 1 || !strings.HasSuffix(got[0].Others[0], "travail.zip!/acces.md") {
		t.Errorf("others %q", got[0].Others)
	}
}

// TestStrayKeyAfterACopyKeepsEveryLearner: when a learner's older copy is
// folded into her result, a key found afterwards in a file of the
// export's top gets a slot of its own: it never takes the place of
// another learner's no-acces-md, and is reported once (outside tester,
// F2).
func TestStrayKeyAfterACopyKeepsEveryLearner(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	key := string(pem.EncodeToMemory(block))
	const alice, bob = "Petit Alice_401_assignsubmission_file_/", "Durand Bob_402_assignsubmission_file_/"
	files := map[string]entry{
		alice + "acces.docx": {body: "x"},
		bob + "acces.md":     {body: page(newKey(47).fp, false), mod: time.Date(2026, 10, 15, 8, 0, 0, 0, time.UTC)},
		bob + "acces (1).md": {body: page(newKey(47).fp, false) + "\n" + key, mod: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)},
		"cle_prof":           {body: key},
	}
	for kind, arg := range bothWays(t, files) {
		results := Validate([]string{arg[0]}, Options{Rules: testRules})
		var got []string
		for _, r := range results {
			got = append(got, strings.TrimSuffix(filepath.ToSlash(strings.TrimPrefix(r.Path, arg[1])), "/")+" "+codesOfResult(r))
		}
		want := []string{bob + "acces.md private-key-leak", strings.TrimSuffix(alice, "/") + " no-acces-md", "cle_prof private-key-leak"}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", kind, got, want)
		}
	}
}

// TestLonePubIsReceived: a Moodle folder whose only file is the .pub, an
// honest one or a private key under its name, says what was received in
// its no-acces-md, in a zip as on disk, never « qui est vide » (outside
// tester, F6); the private key is a leak all the same.
func TestLonePubIsReceived(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	const honest, leaked = "Haut Marc_12_assignsubmission_file_", "Bas Nina_13_assignsubmission_file_"
	files := map[string]entry{
		honest + "/id_ed25519_romeo.pub": {body: string(newKey(48).pub)},
		leaked + "/id_ed25519_romeo.pub": {body: string(pem.EncodeToMemory(block))},
	}
	want := map[string]string{honest: "no-acces-md (id_ed25519_romeo.pub reçu)", leaked: "private-key-leak no-acces-md (id_ed25519_romeo.pub reçu)"}
	for kind, arg := range bothWays(t, files) {
		got := map[string]string{}
		for _, r := range Validate([]string{arg[0]}, Options{Rules: testRules}) {
			dir := strings.TrimSuffix(filepath.ToSlash(strings.TrimPrefix(r.Path, arg[1])), "/")
			msg := r.Problems[len(r.Problems)-1].Message
			if i := strings.Index(msg, "("); i >= 0 && strings.Contains(msg, ")") {
				msg = msg[i : strings.Index(msg, ")")+1]
			}
			got[dir] = codesOfResult(r) + " " + msg
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", kind, got, want)
		}
	}
}
