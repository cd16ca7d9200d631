package learner

import (
	"bytes"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/keys"
)

// emptyParens is a pair of parentheses with nothing (or only a
// separator) between them, or a list in them with a missing item: what
// a message built from an empty value shows.
var emptyParens = regexp.MustCompile(`\(\s*[,;:]?\s*\)|\(\s*[,;]|[,;]\s*\)`)

// TestNoEmptyParentheses runs the checklist over generated homes (every
// kind of key × every recorded date × every acces.md, with and without a
// killed run's leftovers) and holds every message and fix, and the text
// report, to a French sentence without an empty "()"; acces-valid says
// the validator's sentences, never a bare code; acces-matches-date warns
// exactly when acces.md states another date than the one recorded; a
// home with nothing in it says "lancez pret".
func TestNoEmptyParentheses(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	day := time.Date(2026, 10, 20, 0, 0, 0, 0, time.UTC)
	src := t.TempDir()
	good := keys.Store{Files: safefile.KeyFiles{}, Dir: src, Name: "id_ed25519_romeo", Comment: "seance-novembre"}
	if _, err := good.Create(rand.Reader, []byte("une passphrase")); err != nil {
		t.Fatal(err)
	}
	priv, _ := os.ReadFile(good.PrivatePath())
	pub, _ := os.ReadFile(good.PublicPath())
	block, _ := pem.Decode(priv)
	block.Bytes = bytes.Replace(block.Bytes, []byte("aes256-ctr"), []byte("aes256-xts"), 1)
	odd := pem.EncodeToMemory(block)
	st, _ := good.Inspect()
	fp := ssh.FingerprintSHA256(st.Public())
	keyKinds := map[string]map[string]string{
		"absent":        nil,
		"good":          {"": string(priv), ".pub": string(pub)},
		"no .pub":       {"": string(priv)},
		"orphan .pub":   {".pub": string(pub)},
		"other cipher":  {"": string(odd), ".pub": string(pub)},
		"garbage":       {"": "pas une clé\n", ".pub": "pas une clé\n"},
		"legacy PEM":    {"": "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF\n\nAAAA\n-----END RSA PRIVATE KEY-----\n"},
		"pkcs8 chiffré": {"": "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIBvTBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0BBQwwHAQI\n-----END ENCRYPTED PRIVATE KEY-----\n"},
	}
	pubPath := filepath.Join("KEYDIR", "id_ed25519_romeo.pub")
	body := func(date string) string {
		return date + "\n- Chemin de la clé publique : `" + pubPath + "`\n- Empreinte : `256 " + fp + " seance-novembre (ED25519)`\n\n> Connexion uniquement vers le nœud de login indiqué par les organisateurs.\n"
	}
	// Each acces.md with the date and status it states, if any.
	type accesKind struct{ text, date, status string }
	accesKinds := map[string]accesKind{
		"absent":       {},
		"empty":        {text: "\n"},
		"good":         {body("- Date de la demande du compte d'accès : 2026-10-12"), "2026-10-12", "demande"},
		"other date":   {body("- Date de la demande du compte d'accès : 2026-10-05"), "2026-10-05", "demande"},
		"verifie":      {body("Compte vérifié ouvert le 14/10/2026"), "2026-10-14", "verifie"},
		"unlabelled":   {body("Date : 2026-10-12"), "2026-10-12", ""},
		"no path":      {strings.Replace(body("Demandé le 12/10/2026"), "- Chemin de la clé publique : `"+pubPath+"`\n", "", 1), "2026-10-12", "demande"},
		"bare name":    {strings.Replace(body("Demandé le 12/10/2026"), pubPath, "id_ed25519_romeo.pub", 1), "2026-10-12", "demande"},
		"other fp":     {strings.Replace(body("Demandé le 12/10/2026"), fp, "SHA256:e5eV2dbJuZWp9bD1dJ4//42i4oaQUxlDKI+67P1iEBQ", 1), "2026-10-12", "demande"},
		"bad date":     {text: body("Demandé le 31/11/2026")},
		"future":       {body("Demandé le 2026-12-01"), "2026-12-01", "demande"},
		"garbage":      {text: "\x00\xff\xfe()(),\n"},
		"hand, signed": {body("Demandé le 12/10/2026") + "<!-- pret:signature -->\n```\n-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----\n```\n", "2026-10-12", "demande"},
	}
	records := []struct{ status, date string }{{"", ""}, {"demande", "2026-10-12"}, {"verifie", "2026-10-14"}, {"demande", "hier"}, {"demande", "2026-12-01"}, {"", "2026-10-12"}}
	runs := 0
	for kk, files := range keyKinds {
		for ak, a := range accesKinds {
			for _, rec := range records {
				leftovers := runs%2 == 1 // half the homes, to stay quick
				dir := t.TempDir()
				l := Learner{
					Store:      keys.Store{Files: safefile.KeyFiles{}, Dir: filepath.Join(dir, ".ssh"), Name: "id_ed25519_romeo"},
					AccessFile: filepath.Join(dir, "acces.md"), AccessStatus: rec.status, AccessDate: rec.date,
					SessionDay: testenv.Day(testenv.SessionDay), Today: day, Home: dir,
					LookPath: func(string) (string, error) { return "", os.ErrNotExist },
				}
				if files != nil || leftovers {
					os.Mkdir(l.Store.Dir, 0o700)
				}
				for suffix, data := range files {
					os.WriteFile(l.Store.PrivatePath()+suffix, []byte(data), 0o600)
				}
				if leftovers {
					os.WriteFile(filepath.Join(l.Store.Dir, ".id_ed25519_romeo.tmp-4242"), []byte("-----BEGIN"), 0o600)
				}
				if a.text != "" {
					os.WriteFile(l.AccessFile, []byte(strings.ReplaceAll(a.text, "KEYDIR", l.Store.Dir)), 0o644)
				}
				r := l.Check()
				runs++
				name := fmt.Sprintf("key %s, acces.md %s, record %v, leftovers %v", kk, ak, rec, leftovers)
				for _, c := range r.Checks {
					if emptyParens.MatchString(c.Message) || emptyParens.MatchString(c.Fix) {
						t.Fatalf("%s: %s: %q → %q", name, c.ID, c.Message, c.Fix)
					}
					if c.ID == "acces-valid" && c.Status == checklist.Fail && regexp.MustCompile(`[a-z]+-[a-z]+(-[a-z]+)*(,|$)`).MatchString(strings.TrimPrefix(c.Message, "acces.md invalide : ")) {
						t.Fatalf("%s: a bare code: %q", name, c.Message)
					}
				}
				var out bytes.Buffer
				checklist.WriteReport(&out, "texte", r, checklist.Style{})
				if emptyParens.Match(out.Bytes()) {
					t.Fatalf("%s:\n%s", name, out.String())
				}
				matches := check(r, "acces-matches-date")
				differs := rec.date != "" && a.date != "" && (a.date != rec.date || a.status != "" && a.status != rec.status)
				if (matches.Status == checklist.Warn) != differs {
					t.Fatalf("%s: %+v, differs %v", name, matches, differs)
				}
				nothing := kk == "absent" && ak == "absent" && rec.date == ""
				if strings.Contains(check(r, "key-present").Fix, "lancez pret") != nothing {
					t.Fatalf("%s: %+v", name, check(r, "key-present"))
				}
			}
		}
	}
	if runs < 600 {
		t.Fatalf("only %d homes", runs)
	}
}

func check(r *checklist.Report, id string) checklist.Check {
	for _, c := range r.Checks {
		if c.ID == id {
			return c
		}
	}
	return checklist.Check{}
}
