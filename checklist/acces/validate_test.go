package acces

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/renderer/html"
	"golang.org/x/crypto/ssh"
	xhtml "golang.org/x/net/html"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/mdbounds"
	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/internal/textfold"
	"github.com/romeo-pret/pret/keys"
)

var rules = Rules{KeyName: "id_ed25519_romeo.pub", SessionDay: testenv.Day(testenv.SessionDay), Today: testenv.Day(testenv.Today)}

const (
	fpA = "SHA256:bdWv8ASnIXvq7nulAWpJBvplTofkQJ55TUUjbQO+nA0"
	fpB = "SHA256:tc1+NYFSoUoasBV8ZJu5X3dK6V3ESg7kOqqgMRKY8gI"
)

const good = `- Date de la demande : 2026-10-16
- Clé : ~/.ssh/id_ed25519_romeo.pub
- 256 ` + fpA + ` seance-novembre (ED25519)

Connexion uniquement vers le nœud de login indiqué par les organisateurs.
`

func codes(r *Result) []string {
	var out []string
	for _, p := range r.Problems {
		out = append(out, string(p.Code))
	}
	sort.Strings(out)
	return out
}

type vcase struct {
	name string
	text string
	want string // the problem codes, sorted, comma-separated
}

func runCases(t *testing.T, cases []vcase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Validate([]byte(c.text), rules)
			if got := strings.Join(codes(r), ","); got != c.want {
				t.Errorf("codes %q, want %q\n%+v\n--\n%s", got, c.want, r.Problems, c.text)
			}
			for _, p := range r.Problems {
				if p.Message == "" || p.Severity != checklist.SevError && p.Severity != checklist.SevWarning {
					t.Errorf("problem without message or severity: %+v", p)
				}
			}
		})
	}
}

func TestExamplesFolder(t *testing.T) {
	dir := filepath.Join("..", "..", "docs", "examples", "acces")
	tsv, err := os.ReadFile(filepath.Join(dir, "expected.tsv"))
	if err != nil {
		t.Fatalf("the examples are in the repository (docs/examples/acces): %v", err)
	}
	r := rules
	r.Today = testenv.Day("2026-11-29")
	for _, row := range strings.Split(strings.TrimSpace(string(tsv)), "\n")[1:] {
		f := strings.Split(row, "\t")
		data, err := os.ReadFile(filepath.Join(dir, f[0]))
		if err != nil {
			t.Fatal(err)
		}
		res := Validate(data, r)
		var errs []string
		for _, p := range res.Problems {
			if p.Severity == checklist.SevError {
				errs = append(errs, string(p.Code))
			}
		}
		want := ""
		if len(f) > 2 {
			want = f[2]
		}
		if (f[1] == "valid") != res.Valid() || strings.Join(errs, ",") != want {
			t.Errorf("%s: valid=%v errors=%v, want %s %q", f[0], res.Valid(), errs, f[1], want)
		}
	}
}

func TestLayouts(t *testing.T) {
	runCases(t, []vcase{
		{"template list", good, ""},
		{"CRLF", strings.ReplaceAll(good, "\n", "\r\n"), ""},
		{"BOM", "\ufeff" + good, ""},
		{"no final newline", strings.TrimSuffix(good, "\n"), ""},
		{"prose", "J'ai demandé mon compte le 16 octobre 2026 par le formulaire. Ma clé publique est ~/.ssh/id_ed25519_romeo.pub, " +
			"de type ed25519, empreinte " + fpA + ".\n\nConnexion uniquement vers le nœud de login indiqué par les organisateurs.\n", ""},
		{"table", "| Élément | Valeur |\n|---|---|\n| Date de la demande | 16/10/2026 |\n| Clé publique | `~/.ssh/id_ed25519_romeo.pub` |\n" +
			"| Empreinte | `" + fpA + "` |\n| Type | ED25519 |\n| Phrase | Connexion uniquement vers le nœud de login indiqué par les organisateurs. |\n", ""},
		{"headings", "# Mon accès\n\n## Demande du compte\n\nLe 1er octobre 2026.\n\n## Clé\n\n$HOME/.ssh/id_ed25519_romeo.pub\n\n" +
			"`256 " + fpA + " seance-novembre (ED25519)`\n\n## Règle\n\n> Connexion uniquement vers le nœud de login indiqué par les organisateurs.\n", ""},
		{"wrapped sentence in a quote", testenv.Edit(good, "Connexion uniquement vers le nœud de login indiqué par les organisateurs.", "> Connexion uniquement vers le nœud\n> de login indiqué par\n> les organisateurs."), ""},
		{"sentence in emphasis and guillemets", testenv.Edit(good, "Connexion uniquement vers le nœud de login indiqué par les organisateurs.", "*« Connexion uniquement vers le nœud de login indiqué par les organisateurs. »*"), ""},
		{"noeud without ligature, no full stop", testenv.Edit(good, "nœud de login indiqué par les organisateurs.", "noeud de login indiqué par les organisateurs"), ""},
		{"upper case", testenv.Edit(good, "Connexion uniquement vers le nœud de login indiqué par les organisateurs.", "CONNEXION UNIQUEMENT VERS LE NŒUD DE LOGIN INDIQUÉ PAR LES ORGANISATEURS."), ""},
		{"decomposed accents", testenv.Edit(good, "indiqué", "indique\u0301"), ""},
		// A renderer joins lines with no blank line between them into one
		// paragraph: the sentence then shares it with other text.
		{"sentence in the paragraph of the other elements", "Date de vérification : 2026-10-01\nChemin : ~/.ssh/id_ed25519_romeo.pub\nEmpreinte " + fpA + " (ED25519)\nConnexion uniquement vers le nœud de login indiqué par les organisateurs.\n", "altered-sentence"},
		{"sentence after a blank line", "Date de vérification : 2026-10-01\nChemin : ~/.ssh/id_ed25519_romeo.pub\nEmpreinte " + fpA + " (ED25519)\n\nConnexion uniquement vers le nœud de login indiqué par les organisateurs.\n", ""},
		{"labelled sentence", testenv.Edit(good, "Connexion uniquement", "Phrase recopiée : Connexion uniquement"), ""},
		{"numbered list", "1. Date de la demande : 2026-10-16\n2. ~/.ssh/id_ed25519_romeo.pub\n3. " + fpA + " ED25519\n4. Connexion uniquement vers le nœud de login indiqué par les organisateurs.\n", ""},
		{"nbsp before colons", testenv.EditAll(good, " :", "\u00a0:"), ""},
	})
}

func TestDates(t *testing.T) {
	with := func(line string) string { return testenv.Edit(good, "- Date de la demande : 2026-10-16", line) }
	runCases(t, []vcase{
		{"iso", with("Date de la demande : 2026-10-20"), ""},
		{"day first", with("Demandé le 20/10/2026"), ""},
		{"short day first", with("Demande faite le 2/9/2026"), ""},
		{"month name", with("Vérifié ouvert le 20 octobre 2026"), ""},
		{"1er", with("Compte demandé le 1er octobre 2026"), ""},
		{"weekday", with("Demande envoyée le mardi 20 octobre 2026"), ""},
		{"month without accent", with("Demande : 3 fevrier 2026"), ""},
		{"août", with("Demande : 17 août 2026"), ""},
		{"line starting with date", with("Date : 2026-10-10"), ""},
		{"ouvert", with("Compte ouvert, constaté le 2026-10-10"), ""},
		{"unlabelled", with("Le 2026-10-10, j'ai fait le nécessaire"), "missing-date"},
		{"session date only", with("Séance du 5 novembre 2026"), "missing-date"},
		{"session line with request", with("Demande faite le 12/10/2026 pour la séance du 5 novembre 2026"), ""},
		{"request for the session, no date of its own", with("Demande envoyée pour la séance du 5 novembre 2026"), "missing-date"},
		{"no date", with("Compte demandé"), "missing-date"},
		{"february 30", with("Date de la demande : 2026-02-30"), "bad-date"},
		{"november 31", with("Demandé le 31/11/2026"), "bad-date"},
		{"month-first read day-first", with("Demandé le 10/20/2026"), "bad-date"},
		{"future", with("Date de la demande : 2026-10-21"), "future-date"},
		{"future by name", with("Demandé le 3 décembre 2026"), "future-date"},
	})
	late := rules
	late.Today = testenv.Day("2026-11-20")
	for _, d := range []string{"2026-11-05", "2026-11-06"} {
		r := Validate([]byte(with("Date de la demande : "+d)), late)
		if strings.Join(codes(r), ",") != "late-request" || !r.Valid() {
			t.Errorf("%s: %+v", d, r.Problems)
		}
	}
	if r := Validate([]byte(with("Date de la demande : 2026-11-04")), late); len(r.Problems) != 0 {
		t.Errorf("day before the session: %+v", r.Problems)
	}
	heading := "## Vérification du compte\n\nFaite le 14/10/2026, tout va bien.\n\n" + testenv.Edit(good, "- Date de la demande : 2026-10-16\n", "")
	if r := Validate([]byte(heading), rules); len(r.Problems) != 0 {
		t.Errorf("date under a labelled heading: %+v", r.Problems)
	}
}

func TestPaths(t *testing.T) {
	with := func(line string) string {
		return testenv.Edit(good, "- Clé : ~/.ssh/id_ed25519_romeo.pub", line)
	}
	runCases(t, []vcase{
		{"home", with("- Clé : /home/kim/.ssh/id_ed25519_romeo.pub"), ""},
		{"$HOME", with("- Clé : $HOME/.ssh/id_ed25519_romeo.pub"), ""},
		{"${HOME}", with("- Clé : ${HOME}/.ssh/id_ed25519_romeo.pub"), ""},
		{"relative .ssh", with("- Clé : .ssh/id_ed25519_romeo.pub"), ""},
		{"windows", with(`- Clé : C:\Users\kim\.ssh\id_ed25519_romeo.pub`), ""},
		{"userprofile", with(`- Clé : %USERPROFILE%\.ssh\id_ed25519_romeo.pub`), ""},
		{"code span", with("- Clé : `~/.ssh/id_ed25519_romeo.pub`"), ""},
		{"glued to the label", with("- Clé:~/.ssh/id_ed25519_romeo.pub"), ""},
		{"bare name", with("- Clé : id_ed25519_romeo.pub"), "missing-pubkey-path"},
		{"no path", with("- Clé : la mienne"), "missing-pubkey-path"},
		{"private path", with("- Clé : ~/.ssh/id_ed25519_romeo"), "private-key-path"},
		{"other name", with("- Clé : ~/.ssh/id_ed25519.pub"), "unexpected-key-name"},
	})
}

func TestFingerprintAndType(t *testing.T) {
	with := func(line string) string {
		return testenv.Edit(good, "- 256 "+fpA+" seance-novembre (ED25519)", line)
	}
	runCases(t, []vcase{
		{"bare fingerprint, type word", with("Empreinte " + fpA + ", type ed25519."), ""},
		{"type before", with("Clé ED25519 : " + fpA), ""},
		{"no fingerprint", with("Type : ed25519"), "missing-fingerprint"},
		{"too short", with("256 SHA256:bdWv8ASnIXvq7nulAWpJBvplTofkQJ55TUUjbQO+nA seance-novembre (ED25519)"), "bad-fingerprint"},
		{"too long", with("256 " + fpA + "x seance-novembre (ED25519)"), "bad-fingerprint"},
		{"padded", with("256 " + fpA + "= seance-novembre (ED25519)"), "bad-fingerprint"},
		{"bad alphabet", with("256 SHA256:bdWv8ASnIXvq7nul-WpJBvplTofkQJ55TUUjbQO+nA0 (ED25519)"), "bad-fingerprint"},
		{"md5 with prefix", with("256 MD5:3b:1f:92:0c:aa:71:5e:e4:09:6d:8b:2f:44:c1:7e:05 seance-novembre (ED25519)"), "bad-fingerprint"},
		{"md5 bare", with("Empreinte 3b:1f:92:0c:aa:71:5e:e4:09:6d:8b:2f:44:c1:7e:05, ed25519"), "bad-fingerprint"},
		{"two fingerprints", with("256 " + fpA + " (ED25519)\n- ancienne : 256 " + fpB + " (ED25519)"), "multiple-fingerprints"},
		{"same twice", with("256 " + fpA + " (ED25519), soit " + fpA), ""},
		{"rsa line", with("3072 " + fpA + " kim@portable (RSA)"), "wrong-type"},
		{"ecdsa", with("256 " + fpA + " (ECDSA)"), "wrong-type"},
		{"ed25519-sk", with("256 " + fpA + " (ED25519-SK)"), "wrong-type"},
		{"ed25519 certificate", with("256 " + fpA + " kim@portable (ED25519-CERT)"), ""},
		{"rsa certificate", with("3072 " + fpA + " kim@portable (RSA-CERT)"), "wrong-type"},
		{"ed25519-sk certificate", with("256 " + fpA + " (ED25519-SK-CERT)"), "wrong-type"},
		{"no type", with("256 " + fpA + " seance-novembre"), "missing-type"},
		{"file name is not a type", testenv.Edit(with("256 "+fpA+" seance-novembre"), "~/.ssh/id_ed25519_romeo.pub", "~/.ssh/id_ed25519_romeo.pub (fichier id_ed25519_romeo)"), "missing-type"},
		{"both types stated", with("256 " + fpA + " (ED25519) ; l'ancienne était RSA"), ""},
		{"lowercase sha256", with("256 sha256:" + strings.TrimPrefix(fpA, "SHA256:") + " (ED25519)"), ""},
	})
}

func TestSentence(t *testing.T) {
	with := func(s string) string {
		return testenv.Edit(good, "Connexion uniquement vers le nœud de login indiqué par les organisateurs.", s)
	}
	runCases(t, []vcase{
		{"word changed", with("Connexion uniquement vers le nœud de calcul indiqué par les organisateurs."), "altered-sentence"},
		{"word dropped", with("Connexion vers le nœud de login indiqué par les organisateurs."), "altered-sentence"},
		{"word added", with("Connexion uniquement et seulement vers le nœud de login indiqué par les organisateurs."), "altered-sentence"},
		{"host added", with("Connexion uniquement vers le nœud de login indiqué par les organisateurs : romeo1.univ-reims.fr"), "altered-sentence"},
		{"host after the full stop", with("Connexion uniquement vers le nœud de login indiqué par les organisateurs. C'est romeo.univ-reims.fr."), "altered-sentence"},
		{"login node rewritten", with("Je me connecterai au noeud de login romeo2025."), "altered-sentence"},
		{"missing", with(""), "missing-sentence"},
		{"something else", with("Je suis prêt."), "missing-sentence"},
		{"sentence followed by text in its paragraph", with("Connexion uniquement vers le nœud de login indiqué par les organisateurs.\nVoir aussi acces.md."), "altered-sentence"},
		{"sentence followed by text in the next paragraph", with("Connexion uniquement vers le nœud de login indiqué par les organisateurs.\n\nVoir aussi acces.md."), ""},
		{"prose beside it", with("Connexion uniquement vers le nœud de login indiqué par les organisateurs.\n\nJe ne connais pas encore le nœud de login."), ""},
	})
}

func TestLeaks(t *testing.T) {
	priv, _, err := keys.Generate(rand.Reader, "x", []byte("passphrase"))
	if err != nil {
		t.Fatal(err)
	}
	privLines := strings.Split(strings.TrimSpace(string(priv)), "\n")
	cases := []vcase{
		{"openssh block", good + "\n" + string(priv), "private-key-leak"},
		{"rsa pem", good + "```\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAtesttesttest\n-----END RSA PRIVATE KEY-----\n```\n", "private-key-leak"},
		{"ec pem", good + "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIAAAAtest\n-----END EC PRIVATE KEY-----\n", "private-key-leak"},
		{"pkcs8", good + "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAAAA\n-----END PRIVATE KEY-----\n", "private-key-leak"},
		{"encrypted pkcs8", good + "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHDBOBgkqhkiG9w0BBQ0w\n-----END ENCRYPTED PRIVATE KEY-----\n", "private-key-leak"},
		{"putty", good + "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: kim\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIGsecret\nPrivate-Lines: 1\nAAAAIBsecretsecret\nPrivate-MAC: 0123abcd\n", "private-key-leak"},
		{"body without BEGIN", good + "\n" + strings.Join(privLines[1:len(privLines)-1], "\n") + "\n", "private-key-leak"},
		{"only the first body line", good + "\n" + privLines[1] + "\n", "private-key-leak"},
	}
	runCases(t, cases)
	r := Validate([]byte(good+"\n"+string(priv)), rules)
	for _, p := range r.Problems {
		for _, l := range privLines[1 : len(privLines)-1] {
			if strings.Contains(p.Message, l) || strings.Contains(p.Message, l[:20]) {
				t.Fatalf("message reproduces key material: %q", p.Message)
			}
		}
		if p.Line != 7 || !strings.Contains(p.Message, "lignes 7 à ") {
			t.Errorf("line numbers: %+v", p)
		}
	}
	// Body lines with neither markers nor their first line prove no key
	// (keys/leak cannot tell them from random base64): a line of them
	// given as the date is bad-date, and never quoted (outside tester).
	cut := testenv.Edit(good, "2026-10-16", privLines[4]) + "\n" + strings.Join(privLines[3:6], "\n") + "\n"
	r = Validate([]byte(cut), rules)
	if !slices.Contains(codes(r), "bad-date") {
		t.Fatalf("cut body as the date: %v", codes(r))
	}
	for _, p := range r.Problems {
		for _, l := range privLines[1 : len(privLines)-1] {
			if strings.Contains(p.Message, l[:16]) {
				t.Fatalf("message quotes a body line: %q", p.Message)
			}
		}
	}
	// Nor in a path, public or private (outside tester).
	for _, path := range []string{"~/.ssh/" + privLines[4] + ".pub", "~/.ssh/id_" + privLines[4]} {
		r = Validate([]byte(testenv.Edit(good, "~/.ssh/id_ed25519_romeo.pub", path)), rules)
		for _, p := range r.Problems {
			if strings.Contains(p.Message, privLines[4][:16]) {
				t.Fatalf("%s: message quotes the key line: %q", path, p.Message)
			}
		}
		if len(r.Problems) == 0 {
			t.Fatalf("%s: no problem", path)
		}
	}
}

// TestMissingNamesTheKeyLines: what the rules do not read, on a line of key
// material (an online text written on one line), is missing for that reason,
// said; a file without a key says nothing of it (outside tester, stop 41).
func TestMissingNamesTheKeyLines(t *testing.T) {
	priv, _, err := keys.Generate(rand.Reader, "x", []byte("passphrase"))
	if err != nil {
		t.Fatal(err)
	}
	page := strings.ReplaceAll(good, "\n", " ") + " " + strings.ReplaceAll(string(priv), "\n", " ") + "\n"
	r := Validate([]byte(page), Rules{OnlineText: true})
	said := 0
	for _, p := range r.Problems {
		if slices.Contains(unreadWhenLeaked, p.Code) {
			if !strings.HasSuffix(p.Message, "(pret ne lit pas les lignes de la clé privée signalée)") {
				t.Errorf("%s does not say why: %q", p.Code, p.Message)
			}
			said++
		}
	}
	if !slices.Contains(codes(r), "private-key-leak") || said < 4 {
		t.Fatalf("one line with a key: %v", codes(r))
	}
	r = Validate([]byte("Rien.\n"), rules)
	for _, p := range r.Problems {
		if strings.Contains(p.Message, "clé privée") {
			t.Errorf("no key, yet %q", p.Message)
		}
	}
}

func TestPastedAndBesidePublicKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	_, pub, _ := keys.Generate(rand.Reader, "kim", []byte("passphrase"))
	entries, _ := keys.ParsePublic(pub)
	fp := ssh.FingerprintSHA256(entries[0].Key)
	file := testenv.Edit(good, fpA, fp)
	// A certificate counts as the key it certifies (second outside
	// tester, stop 27: its whole blob was fingerprinted).
	_, caKey, _ := ed25519.GenerateKey(rand.Reader)
	ca, _ := ssh.NewSignerFromKey(caKey)
	cert := &ssh.Certificate{Key: entries[0].Key, CertType: ssh.UserCert, KeyId: "kim", ValidPrincipals: []string{"kim"}, ValidBefore: ssh.CertTimeInfinity}
	if err := cert.SignCert(rand.Reader, ca); err != nil {
		t.Fatal(err)
	}
	runCases(t, []vcase{
		{"pasted certificate of the key", file + "\nCertificat : `" + strings.TrimSpace(string(ssh.MarshalAuthorizedKey(cert))) + "`\n", ""},
		{"pasted key matches", file + "\nClé publique : `" + strings.TrimSpace(string(pub)) + "`\n", ""},
		{"pasted key of another key", good + "\n" + strings.TrimSpace(string(pub)) + "\n", "fingerprint-mismatch"},
		{"pasted key broken", good + "\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBroken kim\n", "bad-public-key"},
		{"pasted key alone states the type", testenv.Edit(file, " (ED25519)", "") + "\n" + strings.TrimSpace(string(pub)) + "\n", ""},
	})
	withBeside := func(data []byte) []string {
		r := rules
		r.Beside = &PubFile{Name: "id_ed25519_romeo.pub", Data: data}
		return codes(Validate([]byte(file), r))
	}
	if got := withBeside(pub); len(got) != 0 {
		t.Errorf("matching .pub: %v", got)
	}
	_, other, _ := keys.Generate(rand.Reader, "lea", []byte("passphrase"))
	if got := withBeside(other); strings.Join(got, ",") != "fingerprint-mismatch" {
		t.Errorf("other .pub: %v", got)
	}
	if got := withBeside([]byte("pas une clé")); strings.Join(got, ",") != "bad-public-key" {
		t.Errorf("broken .pub: %v", got)
	}
	// The private key saved under the .pub's name is handed in: a leak.
	otherPriv, _, _ := keys.Generate(rand.Reader, "lea", []byte("passphrase"))
	if got := withBeside(otherPriv); strings.Join(got, ",") != "private-key-leak" {
		t.Errorf("private key as the .pub: %v", got)
	}
	if got := withBeside(append(append([]byte{}, pub...), otherPriv...)); strings.Join(got, ",") != "private-key-leak" {
		t.Errorf("private key after the public one in the .pub: %v", got)
	}
	// A .pub of another type than the one stated is bad-key-type, even
	// when its fingerprint is the one stated.
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ecPub, _ := ssh.NewPublicKey(&ec.PublicKey)
	stated := testenv.Edit(good, fpA, ssh.FingerprintSHA256(ecPub))
	r := rules
	r.Beside = &PubFile{Name: "id_ed25519_romeo.pub", Data: ssh.MarshalAuthorizedKey(ecPub)}
	if got := codes(Validate([]byte(stated), r)); strings.Join(got, ",") != "bad-key-type" {
		t.Errorf("ecdsa .pub beside a file stating ED25519: %v", got)
	}
	// So is a key of another type pasted in it (outside tester, stop 28),
	// (an ed25519 one pasted: "pasted key matches" above).
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 1024)
	rsaPub, _ := ssh.NewPublicKey(&rsaKey.PublicKey)
	for _, k := range []ssh.PublicKey{ecPub, rsaPub} {
		pasted := testenv.Edit(good, fpA, ssh.FingerprintSHA256(k)) + "\nClé publique : `" + strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k))) + "`\n"
		got := Validate([]byte(pasted), rules)
		if strings.Join(codes(got), ",") != "bad-key-type" || !strings.Contains(got.Problems[0].Message, "collée est une clé "+keyTypeName(k.Type())) {
			t.Errorf("%s pasted in a file stating ED25519: %v", k.Type(), got.Problems)
		}
		// With another fingerprint stated, both, as for the .pub beside (outside tester).
		other := good + "\nClé publique : `" + strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k))) + "`\n"
		if got := codes(Validate([]byte(other), rules)); strings.Join(got, ",") != "bad-key-type,fingerprint-mismatch" {
			t.Errorf("%s of another fingerprint pasted: %v", k.Type(), got)
		}
	}
}

func TestFileLevel(t *testing.T) {
	runCases(t, []vcase{
		{"empty: the four missing elements", "", "missing-date,missing-fingerprint,missing-pubkey-path,missing-sentence"},
		{"neither fingerprint nor type", testenv.Edit(good, "- 256 "+fpA+" seance-novembre (ED25519)\n", ""), "missing-fingerprint"},
		{"NUL byte", good + "\x00", "not-text"},
		{"latin-1", testenv.Edit(good, "nœud", "n\xe9ud"), "not-text"},
		// A key in a file that is not text is sent all the same (outside tester).
		{"latin-1 with a key", testenv.Edit(good, "nœud", "n\xe9ud") + "\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n", "not-text,private-key-leak"},
		{"NUL with a key", good + "\x00\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n", "not-text,private-key-leak"},
		// Read a line at a time, a file is too-large whatever that reading sees:
		// an invisible comment or a deep line elsewhere would make any page pass.
		{"over 16 KiB by a comment", good + "<!-- " + strings.Repeat("x", maxMarkdown) + " -->\n", "too-large"},
		{"a second sentence line, over 16 KiB", testenv.Edit(good, "organisateurs.\n", "organisateurs.\nsauf romeo-gpu01.\n") + "<!-- " + strings.Repeat("x", maxMarkdown) + " -->\n", "too-large"},
		{"17 quote marks in a fence", good + "```\n" + strings.Repeat("> ", 17) + "\n```\n", "too-large"},
		{"16 quote marks in a fence", good + "```\n" + strings.Repeat("> ", 16) + "\n```\n", ""},
	})
	big := make([]byte, MaxAccessSize+1)
	if got := codes(Validate(big, rules)); strings.Join(got, ",") != "too-large" {
		t.Errorf("too large: %v", got)
	}
}

// TestValidateFile reads one named file with the .pub of its folder:
// the configured name when there, else the first; too large and
// unreadable files are results, never errors. Folders and archives are
// walked by checklist/submissions, tested there.
func TestValidateFile(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) string {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good1 := write("a/acces.md", good)
	write("a/autre.pub", "pas une clé\n")
	write("a/id_ed25519_romeo.pub", "pas une clé non plus\n")
	other := write("b/acces.md", testenv.Edit(good, fpA, fpB))
	write("b/b.pub", "x\n")
	write("b/a.pub", "x\n")
	big := write("d/acces.md", strings.Repeat("x", MaxAccessSize+10))
	if tg := TargetFor(good1, "id_ed25519_romeo.pub"); tg.Pub != filepath.Join(dir, "a/id_ed25519_romeo.pub") {
		t.Errorf("configured .pub not chosen: %+v", tg)
	}
	if tg := TargetFor(other, "id_ed25519_romeo.pub"); tg.Pub != filepath.Join(dir, "b/a.pub") {
		t.Errorf("first .pub by name not chosen: %+v", tg)
	}
	if tg := TargetFor(big, "id_ed25519_romeo.pub"); tg.Pub != "" {
		t.Errorf("a .pub invented: %+v", tg)
	}
	if r, _ := ValidateFile(Target{Path: other}, rules), 0; !r.Valid || r.Fingerprint != fpB {
		t.Errorf("b: %+v", r)
	}
	if r, _ := ValidateFile(TargetFor(good1, "id_ed25519_romeo.pub"), rules), 0; r.Valid || !slices.ContainsFunc(r.Problems, func(p checklist.Problem) bool { return p.Code == "bad-public-key" }) {
		t.Errorf("an unreadable .pub beside the file must be reported: %+v", r)
	}
	if r, _ := ValidateFile(Target{Path: big}, rules), 0; len(r.Problems) != 1 || r.Problems[0].Code != "too-large" {
		t.Errorf("big: %+v", r.Problems)
	}
	if r, _ := ValidateFile(Target{Path: filepath.Join(dir, "nowhere/acces.md")}, rules), 0; len(r.Problems) != 1 || r.Problems[0].Code != "unreadable" {
		t.Errorf("missing: %+v", r.Problems)
	}
}

func FuzzValidate(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte(strings.ReplaceAll(good, "\n", "\r\n")))
	f.Add([]byte("| Date de la demande | 2/9/2026 |\n> Connexion uniquement\n> vers le noeud\n"))
	f.Add([]byte("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE\nPuTTY-User-Key-File-2: x\n"))
	f.Add([]byte("SHA256:" + strings.Repeat("A", 43) + " MD5:00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff ssh-ed25519 AAAAAAAAAAAAAAAAAAAA"))
	f.Add([]byte("## Demande\n1er fevrier 2026\n31/02/2026 C:\\x\\y.pub ~/ id_"))
	f.Add([]byte(`<p dir="ltr"><img src="@@PLUGINFILE@@/a%20b.png"><br></p><div hidden>x</div><pre>&#8195;</pre>`))
	known := map[string]bool{}
	for _, c := range checklist.Codes {
		known[string(c.Code)] = true
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := Validate(data, rules)
		text := mdbounds.LoneCRs(string(data)) // a file of CRs alone has their lines
		lines := strings.Count(text, "\n")
		if len(text) > 0 && text[len(text)-1] != '\n' {
			lines++
		}
		for _, p := range r.Problems {
			if !known[string(p.Code)] || p.Message == "" || p.Severity != checklist.SevError && p.Severity != checklist.SevWarning {
				t.Fatalf("problem outside the contract: %+v", p)
			}
			if p.Line < 0 || p.Line > lines {
				t.Fatalf("%s at line %d of a %d-line file", p.Code, p.Line, lines)
			}
			if strings.Contains(p.Message, "b3BlbnNzaC1rZXktdjE") {
				t.Fatalf("key material in a message")
			}
		}
		// An online text shows no text (OnlineTextPictures) exactly when
		// it holds no block to read as an acces.md.
		blocks := 0
		readOnlineText(string(data), func(*block) { blocks++ })
		if _, empty := OnlineTextPictures(data); empty != (blocks == 0) {
			t.Fatalf("OnlineTextPictures says empty %v, %d blocks read", empty, blocks)
		}
		// A fingerprint is only ever one the file states, well formed: in
		// its bytes, or in the text goldmark renders ("SHA256:0*0*…" shows as
		// "SHA256:00…", emphasis dropped).
		if fp := strings.ToUpper(r.Fingerprint); fp != "" && (len(fp) != len("SHA256:")+43 ||
			!strings.Contains(strings.ToUpper(string(data)), fp) && !strings.Contains(strings.ToUpper(renderedText(t, data)), fp)) {
			t.Fatalf("fingerprint %q is not stated in the file", r.Fingerprint)
		}
		// Windows line ends change nothing: the same problems, on the
		// same lines, with the same words.
		if bytes.ContainsRune(data, '\r') || 2*len(data) > MaxAccessSize {
			return
		}
		crlf := Validate(bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")), rules)
		if !reflect.DeepEqual(crlf, r) {
			t.Fatalf("CRLF changed the result:\n%+v\nwant\n%+v", crlf, r)
		}
	})
}

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"nœud":                  "noeud",
		"NŒUD":                  "noeud",
		"noeud":                 "noeud",
		"ne\u0301":              "ne",
		"Indiqué  PAR\u00a0les": "indique par les",
		"ÉTÉ à Août, façade":    "ete a aout, facade",
		"l’accès":               "l'acces",
		"  bord  ":              "bord",
		"Ḉa":                    "ca",
	} {
		if got := textfold.Fold(in); got != want {
			t.Errorf("textfold.Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

// renderedText is the text of the page goldmark renders from data, its
// HTML kept (WithUnsafe) and every tag dropped.
func renderedText(t *testing.T, data []byte) string {
	var page bytes.Buffer
	if err := goldmark.New(goldmark.WithRendererOptions(html.WithUnsafe())).Convert(data, &page); err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	z := xhtml.NewTokenizer(&page)
	for tt := z.Next(); tt != xhtml.ErrorToken; tt = z.Next() {
		if tt == xhtml.TextToken {
			text.Write(z.Text())
		}
	}
	return text.String()
}
