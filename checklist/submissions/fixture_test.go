package submissions

import (
	"archive/zip"
	"bytes"
	"crypto/ed25519"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/testenv"
)

var testRules = acces.Rules{KeyName: "id_ed25519_romeo.pub", SessionDay: testenv.Day(testenv.SessionDay), Today: testenv.Day(testenv.Today)}

// key is a learner's public key: its .pub line and its fingerprint.
type key struct {
	pub []byte
	fp  string
}

func newKey(seed byte) key {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, 32))
	pk, err := ssh.NewPublicKey(priv.Public())
	if err != nil {
		panic(err)
	}
	return key{pub: ssh.MarshalAuthorizedKey(pk), fp: ssh.FingerprintSHA256(pk)}
}

// page is an acces.md stating fp; the sentence line is left out when
// broken is set.
func page(fp string, broken bool) string {
	s := "- Date de la demande : 2026-10-16\n- Clé : ~/.ssh/id_ed25519_romeo.pub\n- 256 " + fp + " seance-novembre (ED25519)\n\n"
	if !broken {
		s += "Connexion uniquement vers le nœud de login indiqué par les organisateurs.\n"
	}
	return s
}

// course is one class's hand-in: files to lay out and, for each
// submission (by its path in the course), the learner and the error codes
// it must get, sorted and joined by spaces ("" = valid).
type course struct {
	files   map[string]string
	want    map[string]string
	learner map[string]string
}

// classroom is shaped like a GitHub Classroom download: one clone per
// learner, "devoir-LOGIN/…", with broken, duplicated, renamed and copied
// submissions.
func classroom() course {
	a, b, c, d := newKey(1), newKey(2), newKey(3), newKey(4)
	return course{
		files: map[string]string{
			"devoir-alice/acces.md":             page(a.fp, false),
			"devoir-alice/id_ed25519_romeo.pub": string(a.pub),
			"devoir-bob/acces.md":               page(b.fp, true), // broken
			"devoir-carol/docs/Accès.md":        page(c.fp, false),
			"devoir-dave/acces.md":              page(c.fp, false), // carol's key
			"devoir-erin/ACCES (2).MD":          page(d.fp, false), // renamed by a download
			"devoir-erin/notes.md":              "rien",
			"devoir-frank/acces.md":             page(b.fp+"x", false),
			"devoir-gina/acces.md":              page(d.fp, false), // erin's key too
			"devoir-hugo/acces.md":              page(a.fp, false), // alice's key
			"devoir-hugo/id_ed25519_romeo.pub":  string(b.pub),     // and not his .pub
			"devoir-ines/acces.md.bak":          "pas lu",
			"devoir-ines/mesacces.md":           "pas lu",
		},
		want: map[string]string{
			"devoir-alice/acces.md":      "duplicate-fingerprint",
			"devoir-bob/acces.md":        "missing-sentence",
			"devoir-carol/docs/Accès.md": "duplicate-fingerprint",
			"devoir-dave/acces.md":       "duplicate-fingerprint",
			"devoir-erin/ACCES (2).MD":   "duplicate-fingerprint",
			"devoir-frank/acces.md":      "bad-fingerprint",
			"devoir-gina/acces.md":       "duplicate-fingerprint",
			"devoir-ines":                "no-acces-md", // her folder: nothing read
			"devoir-hugo/acces.md":       "duplicate-fingerprint fingerprint-mismatch",
		},
		// The login: "devoir-" is the prefix all repositories share.
		learner: map[string]string{
			"devoir-alice/acces.md":      "alice",
			"devoir-bob/acces.md":        "bob",
			"devoir-carol/docs/Accès.md": "carol",
			"devoir-dave/acces.md":       "dave",
			"devoir-erin/ACCES (2).MD":   "erin",
			"devoir-frank/acces.md":      "frank",
			"devoir-gina/acces.md":       "gina",
			"devoir-hugo/acces.md":       "hugo",
			"devoir-ines":                "ines",
		},
	}
}

// moodle is shaped like Moodle's "download all submissions": a flat
// folder of renamed files, and folders for learners who sent several.
func moodle() course {
	a, b, c := newKey(5), newKey(6), newKey(7)
	const (
		alice = "Dupont Alice_1001_assignsubmission_file_acces.md"
		bob   = "Martin Bob_1002_assignsubmission_file_acces.md"
		chloe = "Durand Chloé_1003_assignsubmission_file_/"
		denis = "Petit Denis_1004_assignsubmission_file_/"
		felix = "Leroy Félix_1006_assignsubmission_file_mon-acces.md"
		gaele = "Moreau Gaëlle_1007_assignsubmission_file_/sous dossier/"
	)
	return course{
		files: map[string]string{
			alice:                          page(a.fp, false),
			bob:                            page(b.fp, true), // broken
			chloe + "acces.md":             page(c.fp, false),
			chloe + "acces (1).md":         page(c.fp, false), // her copy
			chloe + "id_ed25519_romeo.pub": string(c.pub),
			denis + "Accès.md":             page(a.fp, false), // Alice's key
			denis + "id_ed25519_romeo.pub": string(b.pub),     // and not his
			"Roux Emma_1005_assignsubmission_onlinetext_image.png": "PNG", // onlinetext.html is read: onlinetext_test.go
			felix:                  page(newKey(8).fp, false),
			felix + ".bak":         "ancien",
			gaele + "acces.md":     page(newKey(9).fp, false),
			gaele + "notes.txt":    "acces.md",
			gaele + "mesacces.md":  "pas lu",
			gaele + "acces.md.txt": "pas lu",
		},
		want: map[string]string{
			alice:                  "duplicate-fingerprint",
			bob:                    "missing-sentence",
			chloe + "acces (1).md": "", // at one time, Moodle's later copy: "acces.md" is listed in it
			denis + "Accès.md":     "duplicate-fingerprint fingerprint-mismatch",
			felix:                  "",
			gaele + "acces.md":     "",
			// Online text only: a result of her own, no-acces-md.
			"Roux Emma_1005_assignsubmission_onlinetext_image.png": "no-acces-md",
		},
		learner: map[string]string{
			alice:                  "Dupont Alice",
			bob:                    "Martin Bob",
			chloe + "acces (1).md": "Durand Chloé",
			denis + "Accès.md":     "Petit Denis",
			felix:                  "Leroy Félix",
			gaele + "acces.md":     "Moreau Gaëlle",
			"Roux Emma_1005_assignsubmission_onlinetext_image.png": "Roux Emma",
		},
	}
}

// layDisk writes a course under dir.
func (c course) layDisk(t testing.TB, dir string) {
	t.Helper()
	for rel, content := range c.files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		// One time for all: a learner's latest file is then the one of
		// the later path, as in an archive whose entries have no time.
		if err := os.Chtimes(p, fixtureTime, fixtureTime); err != nil {
			t.Fatal(err)
		}
	}
}

var fixtureTime = time.Date(2026, 10, 16, 9, 0, 0, 0, time.UTC)

// zipped is the course as a .zip, under a top folder when top is set.
func (c course) zipped(t testing.TB, top string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for rel, content := range c.files {
		w, err := zw.Create(top + rel)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(content))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// inputKinds lays a course out in every way organisers receive one and
// returns, per kind, the arguments of pret valider.
func (c course) inputKinds(t testing.TB) map[string][]string {
	t.Helper()
	root := t.TempDir()
	folder := filepath.Join(root, "dossier")
	c.layDisk(t, folder)
	zipPath := filepath.Join(root, "rendus.zip")
	if err := os.WriteFile(zipPath, c.zipped(t, ""), 0o644); err != nil {
		t.Fatal(err)
	}
	nested := filepath.Join(root, "telechargement")
	os.MkdirAll(nested, 0o755)
	if err := os.WriteFile(filepath.Join(nested, "Devoir.ZIP"), c.zipped(t, ""), 0o644); err != nil {
		t.Fatal(err)
	}
	// Every submission named on the command line, in a mixed order.
	var files []string
	for rel := range c.files {
		if IsSubmissionName(filepath.Base(rel)) {
			files = append(files, filepath.Join(folder, filepath.FromSlash(rel)))
		}
	}
	return map[string][]string{
		"dossier":        {folder},
		"zip":            {zipPath},
		"zip-en-dossier": {nested},
		"fichiers":       files,
		// The same tree twice under two spellings reads each file once.
		"deux-orthographes": {folder, folder + string(filepath.Separator) + "." + string(filepath.Separator)},
	}
}

// codesOf joins a file's error codes as course.want does.
func codesOf(codes []string) string {
	seen := map[string]bool{}
	var out []string
	for _, c := range codes {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// Validate is Read as a slice of results.
func Validate(args []string, opts Options) []checklist.FileResult {
	run := Read(args, opts)
	out := make([]checklist.FileResult, run.Len())
	for i := range out {
		out[i] = run.At(i)
	}
	return out
}
