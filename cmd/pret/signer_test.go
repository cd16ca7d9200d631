package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/keys/signing"

	"github.com/romeo-pret/pret/internal/testenv"
)

func init() {
	inProcessCases["signer"] = func(t *testing.T) {
		home := testEnv(t)
		must(t, pretIn(t, testPass+"\n", "signer", "--passphrase-file", "-"), exitFailed, "signer without a key")
		putKey(t, home)
		must(t, pretIn(t, "", "acces", "--statut", "demande"), exitOK)
		must(t, pretIn(t, "", "signer"), exitUsage, "signer without a terminal")
		must(t, pretIn(t, "faux\n", "signer", "--passphrase-file", "-"), exitFailed, "signer, wrong passphrase")
		// Signed from a file: testdata/signer.txtar checks the signature.
		must(t, pretIn(t, testPass+"\n", "signer", "--passphrase-file", "-"), exitOK, "signer")
		// On a terminal: asked once, signed (valider checks it).
		p := &enterPrompter{}
		must(t, pretTTY(t, p, "signer"), exitOK, "signer on a terminal")
		if len(p.asked) != 1 || !strings.HasPrefix(p.asked[0], "Passphrase de la clé ") {
			t.Fatalf("questions: %q", p.asked)
		}
		must(t, pretIn(t, "", "valider", "--exiger-signature", "--strict", "acces.md"), exitOK, "valider --exiger-signature")
	}
}

// signableHome is where every signing test starts, run as a separate
// process: a key made with pass, and an acces.md noting the request.
func signableHome(t *testing.T, pass string) *home {
	t.Helper()
	h := newHome(t)
	putKeyWith(t, h.dir, pass)
	h.must(0, "", "acces", "--statut", "demande")
	return h
}

// signableEnv is signableHome in process, with testPass: it returns the
// home folder.
func signableEnv(t *testing.T) string {
	t.Helper()
	home := testEnv(t)
	putKey(t, home)
	must(t, pretIn(t, "", "acces", "--statut", "demande"), exitOK)
	return home
}

// TestSignerKeepsSecretsInside follows `pret signer` and `pret acces
// --signer` with strace: no child process is started (so the passphrase
// reaches no other argument list nor environment), and every file opened
// for writing is acces.md's own staging file beside it; afterwards no file
// of the home but the key itself holds the passphrase or a line of the
// private key.
func TestSignerKeepsSecretsInside(t *testing.T) {
	t.Parallel()
	notShort(t)
	strace := testenv.NeedTool(t, "strace")
	h := signableHome(t, secretPass)
	priv := readFile(t, h.path(".ssh/id_ed25519_romeo"))
	// With -y, strace names the folder of an openat relative to an open
	// folder (the writers create their temporary file that way):
	// openat(3</home/kim>, ".acces.md.tmp-…", O_WRONLY|O_CREAT…).
	writeOpen := regexp.MustCompile(`open(?:at)?\((?:AT_FDCWD, |\d+<([^>]*)>, )?"([^"]+)", [^)]*O_(?:WRONLY|RDWR|CREAT)`)
	runs := []struct {
		stdin string
		args  []string
		code  int
	}{
		{"pas la bonne\n", []string{"signer", "--passphrase-file", "-"}, 1},
		{secretPass + "\n", []string{"signer", "--passphrase-file", "-"}, 0},
		{secretPass + "\n", []string{"acces", "--statut", "verifie", "--force", "--signer", "--passphrase-file", "-"}, 0},
	}
	for i, run := range runs {
		trace := filepath.Join(t.TempDir(), "trace")
		cmd := exec.Command(strace, append([]string{"-f", "-y", "-s", "256", "-e", "trace=execve,open,openat,creat", "-o", trace, binary(t)}, run.args...)...)
		cmd.Env, cmd.Dir = h.env, h.dir
		cmd.Stdin = strings.NewReader(run.stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		r := finish(t, cmd, &out, &errb, cmd.Run())
		if r.code != run.code {
			t.Fatalf("run %d: exit %d, want %d\n%s", i, r.code, run.code, r.stderr)
		}
		data := readFile(t, trace)
		if n := strings.Count(string(data), "execve("); n != 1 {
			t.Errorf("run %d: %d execve calls: pret started another program\n%s", i, n, data)
		}
		if bytes.Contains(data, []byte(secretPass)) {
			t.Errorf("run %d: the passphrase crossed a system call argument", i)
		}
		for _, m := range writeOpen.FindAllStringSubmatch(string(data), -1) {
			p := m[2]
			if m[1] != "" && !filepath.IsAbs(p) {
				p = filepath.Join(m[1], p)
			}
			base := filepath.Base(p)
			if !strings.HasPrefix(p, h.dir) || !(base == "acces.md" || strings.HasPrefix(base, ".acces.md.tmp-") || strings.HasPrefix(base, "etat.yaml") || strings.HasPrefix(base, ".etat.yaml.tmp-")) {
				t.Errorf("run %d: opened for writing: %s", i, p)
			}
		}
	}
	var keyLines []string
	for _, l := range strings.Split(string(priv), "\n") {
		if len(l) >= 24 && !strings.HasPrefix(l, "-----") {
			keyLines = append(keyLines, l)
		}
	}
	filepath.Walk(h.dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || p == h.path(".ssh/id_ed25519_romeo") {
			return nil
		}
		data, _ := os.ReadFile(p)
		if bytes.Contains(data, []byte(secretPass)) {
			t.Errorf("%s holds the passphrase", p)
		}
		for _, l := range keyLines {
			if bytes.Contains(data, []byte(l)) {
				t.Errorf("%s holds private key material", p)
			}
		}
		return nil
	})
	data, _ := os.ReadFile(h.path("acces.md"))
	if err := signing.SplitSigned(data).Verify(); err != nil {
		t.Fatalf("acces.md not signed at the end: %v", err)
	}
}

// TestSignerEscapesNames: a file name is text from outside; whatever it
// holds, pret signer and its refusals print it without a control
// character.
func TestSignerEscapesNames(t *testing.T) {
	notShort(t)
	home := signableEnv(t)
	data := readFile(t, filepath.Join(home, "acces.md"))
	name := "acc\x1b]0;titre\x07\x1b[31mes.md"
	os.WriteFile(filepath.Join(home, name), data, 0o644)
	r := pretIn(t, testPass+"\n", "signer", name, "--passphrase-file", "-")
	must(t, r, exitOK, "signer", name)
	broken := "casse\x1b[2J.md"
	os.WriteFile(filepath.Join(home, broken), []byte("rien\n"), 0o644)
	r2 := pretIn(t, testPass+"\n", "signer", broken, "--passphrase-file", "-")
	must(t, r2, exitFailed, "signer", broken)
	for _, out := range []string{r.stdout, r.stderr, r2.stdout, r2.stderr} {
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Fatalf("control character printed: %q", out)
		}
	}
}

// TestValiderSignatureEveryFormat: a folder of learners' files — signed,
// tampered, signed by a borrowed key, unsigned — validated with
// --exiger-signature in every output format: each verdict's code is in
// every report, the valid file is not flagged, exit 1 throughout.
func TestValiderSignatureEveryFormat(t *testing.T) {
	notShort(t)
	home := signableEnv(t)
	unsigned := readFile(t, filepath.Join(home, "acces.md"))
	must(t, pretIn(t, testPass+"\n", "signer", "--passphrase-file", "-"), exitOK)
	signedData, _ := os.ReadFile(filepath.Join(home, "acces.md"))
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	other, _ := ssh.NewSignerFromKey(priv)
	borrowed, err := signing.SignFile(rand.Reader, other, unsigned)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"kim":  signedData,
		"lea":  bytes.Replace(signedData, []byte("2026-10-20"), []byte("2026-10-19"), 1),
		"noor": borrowed,
		"sam":  unsigned,
	}
	for who, data := range files {
		os.MkdirAll(filepath.Join(home, "rendus", who), 0o755)
		os.WriteFile(filepath.Join(home, "rendus", who, "acces.md"), data, 0o644)
	}
	for _, f := range checklist.FileFormats {
		r := pretIn(t, "", "valider", "--exiger-signature", "--tous", "--format", f, "rendus")
		must(t, r, exitFailed, "valider --format", f)
		for _, code := range []string{"bad-signature", "signature-key-mismatch", "unsigned"} {
			if !strings.Contains(r.stdout, code) {
				t.Errorf("%s: %s missing", f, code)
			}
		}
		if strings.Contains(r.stdout, "BEGIN SSH SIGNATURE") || strings.Contains(r.stdout, testPass) {
			t.Errorf("%s: the report copies the block or the passphrase", f)
		}
	}
	r := pretIn(t, "", "valider", "--exiger-signature", "--format", "json", "rendus/kim")
	must(t, r, exitOK, "valider kim")
}

// TestSignerNeverDropsAppendedText is the outside tester's case, end to
// end and over variants: after `pret signer`, text or a private key is
// appended after the block (or a marker lands mid-file); `pret signer`
// then exits 1 with the cause and a conseil, the file byte for byte as it
// was; `pret valider` fails; and `pret verifier` does not advise the
// « pret signer » that would refuse.
func TestSignerNeverDropsAppendedText(t *testing.T) {
	t.Parallel()
	notShort(t)
	h := signableHome(t, secretPass)
	h.must(0, secretPass+"\n", "signer", "--passphrase-file", "-")
	signed := readFile(t, h.path("acces.md"))
	priv := readFile(t, h.path(".ssh/id_ed25519_romeo"))
	msg := signing.SplitSigned(signed).Message
	variants := map[string][]byte{
		"note":        append(bytes.Clone(signed), "Note de l'apprenant.\n"...),
		"cat key":     append(bytes.Clone(signed), priv...),
		"gap + note":  append(bytes.Clone(signed), "\n\nEncore une ligne\n"...),
		"mid marker":  append(append(bytes.Clone(msg[:len(msg)/2]), signing.SigMarker+"\n"...), msg[len(msg)/2:]...),
		"marker+text": bytes.Replace(bytes.Clone(signed), []byte(signing.SigMarker+"\n"), []byte(signing.SigMarker+"\nun mot\n"), 1),
	}
	for name, data := range variants {
		t.Run(name, func(t *testing.T) {
			writeFile(t, h.path("acces.md"), data, 0o644)
			r := h.pret(secretPass+"\n", "signer", "--passphrase-file", "-")
			says(t, r, 1, "pret: erreur : ", "pret: conseil : ")
			if strings.Contains(r.stderr+r.stdout, "PRIVATE KEY") {
				t.Fatal("key material in the output")
			}
			if now, _ := os.ReadFile(h.path("acces.md")); !bytes.Equal(now, data) {
				t.Fatal("pret signer changed the file it refused")
			}
			h.must(1, "", "valider", "acces.md")
			v := h.pret("", "verifier")
			for _, l := range strings.Split(v.stdout, "\n") {
				if strings.Contains(l, "signez-le de nouveau avec « pret signer »") && !strings.Contains(l, "puis") {
					t.Fatalf("pret verifier sends the learner to a refusal: %q", l)
				}
			}
		})
	}
}

// TestSignerEveryCipher: the learner's key made by the real
// `ssh-keygen -Z CIPHER -N …`, for every cipher this OpenSSH writes
// (`ssh -Q cipher`): pret verifier passes key-encrypted, pret signer
// opens it with the passphrase and signs, and OpenSSH's own recipe
// (signature.md) verifies the file with ssh-keygen -Y. A cipher pret
// does not know: pret verifier says pret signer cannot open it, and pret
// signer refuses before asking, naming the cipher, the file untouched.
func TestSignerEveryCipher(t *testing.T) {
	t.Parallel()
	notShort(t)
	keygen := testenv.NeedTool(t, "ssh-keygen")
	ciphers := strings.Fields(testenv.Run(t, testenv.NeedTool(t, "ssh"), "-Q", "cipher"))
	for _, c := range []string{"aes128-ctr", "aes192-ctr", "aes256-ctr", "aes256-gcm@openssh.com", "chacha20-poly1305@openssh.com"} {
		if !slices.Contains(ciphers, c) {
			ciphers = append(ciphers, c) // named in cli.md: tested whatever ssh lists
		}
	}
	for _, c := range append(ciphers, "inconnu") {
		t.Run(c, func(t *testing.T) {
			h := newHome(t)
			os.Mkdir(h.path(".ssh"), 0o700)
			z := c
			if c == "inconnu" {
				z = "aes256-ctr"
			}
			key := testenv.SSHKeygen(t, h.path(".ssh"), "id_ed25519_romeo", "-t", "ed25519", "-a", "4", "-Z", z, "-N", secretPass, "-C", "seance-novembre")
			if c == "inconnu" {
				// Same length, so the file's other fields stay in place.
				data, _ := os.ReadFile(key)
				block, _ := pem.Decode(data)
				block.Bytes = bytes.Replace(block.Bytes, []byte("aes256-ctr"), []byte("aes256-xts"), 1)
				os.WriteFile(key, pem.EncodeToMemory(block), 0o600)
			}
			h.must(0, "", "acces", "--statut", "demande")
			before, _ := os.ReadFile(h.path("acces.md"))
			v := h.pret("", "verifier")
			s := h.pret(secretPass+"\n", "signer", "--passphrase-file", "-")
			if c == "inconnu" {
				if !regexp.MustCompile(`(?m)^ATTENTION  key-encrypted .*pret signer ne sait pas l'ouvrir.*"aes256-xts"`).MatchString(v.stdout) {
					t.Fatalf("pret verifier:\n%s", v.stdout)
				}
				says(t, s, 1, `"aes256-xts"`, "ssh-keygen -p -a 100 -Z aes256-ctr")
				if now, _ := os.ReadFile(h.path("acces.md")); !bytes.Equal(now, before) {
					t.Fatal("acces.md changed")
				}
				return
			}
			if !regexp.MustCompile(`(?m)^OK         key-encrypted .*\(` + regexp.QuoteMeta(c) + `, bcrypt\)$`).MatchString(v.stdout) {
				t.Fatalf("pret verifier:\n%s", v.stdout)
			}
			if s.code != 0 {
				t.Fatalf("pret signer: exit %d\n%s", s.code, s.stderr)
			}
			data, _ := os.ReadFile(h.path("acces.md"))
			f := signing.SplitSigned(data)
			armour := data[bytes.Index(data, []byte("-----BEGIN SSH SIGNATURE-----")):]
			armour = armour[:bytes.Index(armour, []byte("-----END SSH SIGNATURE-----\n"))+len("-----END SSH SIGNATURE-----\n")]
			os.WriteFile(h.path("acces.sig"), armour, 0o644)
			check := exec.Command(keygen, "-Y", "check-novalidate", "-n", "pret-acces", "-s", h.path("acces.sig"))
			check.Stdin = bytes.NewReader(f.Message)
			if out, err := check.CombinedOutput(); err != nil || !bytes.Contains(out, []byte(`Good "pret-acces" signature with ED25519 key`)) {
				t.Fatalf("ssh-keygen -Y check-novalidate: %v %s", err, out)
			}
		})
	}
}
