package keys

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/internal/testenv"
)

func TestGenerateRoundTrip(t *testing.T) {
	priv, pub, err := Generate(rand.Reader, "seance-novembre", []byte("correct horse"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(priv, []byte("-----BEGIN OPENSSH PRIVATE KEY-----\n")) {
		t.Fatalf("not an OpenSSH private key: %.40q", priv)
	}
	key, err := ssh.ParseRawPrivateKeyWithPassphrase(priv, []byte("correct horse"))
	if err != nil {
		t.Fatalf("own key does not decrypt: %v", err)
	}
	signer, err := ssh.NewSignerFromKey(key)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(PublicLine(signer.PublicKey(), "seance-novembre")), string(pub); got != want {
		t.Fatalf("public line %q, want %q", got, want)
	}
	if !strings.HasPrefix(string(pub), "ssh-ed25519 AAAA") || !strings.HasSuffix(string(pub), " seance-novembre\n") {
		t.Fatalf("public line %q", pub)
	}
	if _, err := ssh.ParseRawPrivateKeyWithPassphrase(priv, []byte("wrong horse")); err == nil {
		t.Fatal("wrong passphrase accepted")
	}
	if _, err := ssh.ParseRawPrivateKey(priv); err == nil {
		t.Fatal("encrypted key parsed without passphrase")
	}
	info, err := ParsePrivate(priv)
	if err != nil {
		t.Fatal(err)
	}
	if !info.Encrypted || info.Cipher != "aes256-ctr" || info.KDF != "bcrypt" || info.Comment != "" {
		t.Fatalf("header %+v", info)
	}
	if !bytes.Equal(info.Public.Marshal(), signer.PublicKey().Marshal()) {
		t.Fatal("header public key differs from the key's")
	}
	if _, _, err := Generate(rand.Reader, "x", nil); err == nil {
		t.Fatal("empty passphrase accepted")
	}
}

// TestSSHKeygenKeys: for keys the real ssh-keygen makes, of the types and
// comment shapes learners have, the private key's header (type, cipher,
// KDF, comment when clear) and public half agree with the key and its
// .pub, and the fingerprint line and randomart are `ssh-keygen -lv`'s,
// byte for byte.
func TestSSHKeygenKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	keygen := testenv.NeedTool(t, "ssh-keygen")
	dir := t.TempDir()
	for i, c := range []struct {
		typ, bits, pass, comment string
	}{
		{"ed25519", "", "secret-phrase", "avec passphrase"},
		{"ed25519", "", "", "seance-novembre"},
		{"ed25519", "", "", ""},
		{"ed25519", "", "", "deux  espaces et accents é"},
		{"rsa", "3072", "", "kim@portable"},
		{"rsa", "1024", "", "petite"},
		{"ecdsa", "256", "", "ec key"},
		{"ecdsa", "384", "", "ec384"},
		{"ecdsa", "521", "", "ec521"},
	} {
		args := []string{"-t", c.typ, "-N", c.pass, "-C", c.comment}
		if c.bits != "" {
			args = append(args, "-b", c.bits)
		}
		path := testenv.SSHKeygen(t, dir, fmt.Sprint("k", i), args...)
		data, err := ReadFile(disk, path)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ParsePrivate(data)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		want := Private{Encrypted: c.pass != "", Cipher: "none", KDF: "none", Comment: c.comment}
		if want.Encrypted {
			want.Cipher, want.KDF, want.Comment = "aes256-ctr", "bcrypt", ""
		}
		if p.Encrypted != want.Encrypted || p.Comment != want.Comment || p.Cipher != want.Cipher || p.KDF != want.KDF ||
			TypeName(p.Public) != strings.ToUpper(c.typ) {
			t.Errorf("%v: got %+v type %s", args, p, TypeName(p.Public))
		}
		// ssh-keygen -lv: the fingerprint line, then the randomart.
		wantArt := testenv.Run(t, keygen, "-lvf", path+".pub")
		pubData, _ := os.ReadFile(path + ".pub")
		entries, err := ParsePublic(pubData)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(entries[0].Key.Marshal(), p.Public.Marshal()) {
			t.Errorf("%v: header public key differs from .pub", args)
		}
		if got := FingerprintLine(entries[0].Key, entries[0].Comment) + "\n" + fingerprintOf(entries[0].Key, "").Randomart(); got != wantArt {
			t.Errorf("%v:\n got %s\nwant %s", args, got, wantArt)
		}
	}
}

// TestCreateInteropSSHKeygen is the promise of the course: a key pret
// writes opens with the real ssh-keygen and the passphrase, and not without.
func TestCreateInteropSSHKeygen(t *testing.T) {
	keygen := testenv.NeedTool(t, "ssh-keygen")
	dir := filepath.Join(t.TempDir(), ".ssh")
	s := Store{Files: disk, Dir: dir, Name: "id_ed25519_romeo", Comment: "seance-novembre"}
	st, err := s.Create(rand.Reader, []byte("une passphrase solide"))
	if err != nil {
		t.Fatal(err)
	}
	out := testenv.Run(t, keygen, "-y", "-P", "une passphrase solide", "-f", s.PrivatePath())
	pub, _ := os.ReadFile(s.PublicPath())
	if got, want := strings.Fields(out)[:2], strings.Fields(string(pub))[:2]; got[1] != want[1] || got[0] != want[0] {
		t.Fatalf("ssh-keygen -y gives %q, .pub holds %q", out, pub)
	}
	if err := exec.Command(keygen, "-y", "-P", "", "-f", s.PrivatePath()).Run(); err == nil {
		t.Fatal("ssh-keygen opened the key with an empty passphrase")
	}
	want := testenv.Run(t, keygen, "-lf", s.PublicPath())
	if got := FingerprintLine(st.Public(), st.Pub.Comment) + "\n"; got != want {
		t.Fatalf("fingerprint %q, ssh-keygen says %q", got, want)
	}
	if !strings.HasSuffix(want, " seance-novembre (ED25519)\n") {
		t.Fatalf("unexpected ssh-keygen line %q", want)
	}
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestSymlinkAtKeyPathRefused(t *testing.T) {
	for _, dangling := range []bool{true, false} {
		dir := t.TempDir()
		target := filepath.Join(dir, "elsewhere")
		if !dangling {
			os.WriteFile(target, []byte("victim"), 0o600)
		}
		s := Store{Files: disk, Dir: dir, Name: "id", Comment: "c"}
		symlinkOrSkip(t, target, s.PrivatePath())
		if _, err := s.Inspect(); !errors.Is(err, ErrSymlink) {
			t.Errorf("dangling=%v: Inspect gives %v", dangling, err)
		}
		if _, err := s.Create(rand.Reader, []byte("passphrase")); !errors.Is(err, ErrSymlink) {
			t.Errorf("dangling=%v: Create gives %v", dangling, err)
		}
		if err := WriteNew(disk, s.PrivatePath(), []byte("x"), 0o600); !errors.Is(err, ErrSymlink) {
			t.Errorf("dangling=%v: WriteNew gives %v", dangling, err)
		}
		b, err := os.ReadFile(target)
		if dangling && err == nil || !dangling && string(b) != "victim" {
			t.Errorf("dangling=%v: target touched: %q %v", dangling, b, err)
		}
		if _, err := ReadFile(disk, s.PrivatePath()); !errors.Is(err, ErrSymlink) {
			t.Errorf("ReadFile followed the link: %v", err)
		}
		assertNoTemp(t, dir)
	}
}

func TestConcurrentCreateMakesOneKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".ssh")
	s := Store{Files: disk, Dir: dir, Name: "id_ed25519_romeo", Comment: "c"}
	var wg sync.WaitGroup
	results := make([]string, 8)
	errs := make([]error, 8)
	for i := range results {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			st, err := s.Create(rand.Reader, []byte("passphrase"))
			if errors.Is(err, ErrAppeared) {
				err = nil
			}
			errs[i] = err
			if err == nil {
				results[i] = ssh.FingerprintSHA256(st.Public())
			}
		}(i)
	}
	wg.Wait()
	for i := range results {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if results[i] != results[0] {
			t.Fatalf("different keys reported: %v", results)
		}
	}
	st, _ := s.Inspect()
	if !st.PubMatches() || ssh.FingerprintSHA256(st.Public()) != results[0] {
		t.Fatal("the key on disk is not the one reported")
	}
	assertNoTemp(t, dir)
}

func TestInspectKinds(t *testing.T) {
	dir := t.TempDir()
	s := Store{Files: disk, Dir: dir, Name: "id", Comment: "c"}
	if st, err := s.Inspect(); err != nil || st.Kind != Absent {
		t.Fatalf("empty folder: %v %v", st, err)
	}
	_, pub, _ := Generate(rand.Reader, "c", []byte("passphrase"))
	os.WriteFile(s.PublicPath(), pub, 0o644)
	if st, err := s.Inspect(); err != nil || st.Kind != OrphanPub {
		t.Fatalf("orphan .pub: %+v %v", st, err)
	}
	os.Remove(s.PublicPath())
	priv, _, _ := Generate(rand.Reader, "c", []byte("passphrase"))
	os.WriteFile(s.PrivatePath(), priv, 0o600)
	st, err := s.Inspect()
	if err != nil || st.Kind != Present || st.Pub != nil {
		t.Fatalf("private alone: %+v %v", st, err)
	}
	st, err = s.RebuildPub(st)
	if err != nil || !st.PubMatches() {
		t.Fatalf("rebuild: %+v %v", st, err)
	}
	if b, _ := os.ReadFile(s.PublicPath()); !strings.HasSuffix(string(b), " c\n") {
		t.Fatalf("rebuilt .pub %q", b)
	}
}

func TestHostileKeyBytes(t *testing.T) {
	priv, _, _ := Generate(rand.Reader, "c", []byte("passphrase"))
	cases := map[string][]byte{
		"empty":       nil,
		"random":      bytes.Repeat([]byte{0xde, 0xad, 0xbe, 0xef}, 100),
		"truncated":   priv[:len(priv)/2],
		"wrong magic": []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjI=\n-----END OPENSSH PRIVATE KEY-----\n"),
		"huge length": []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA/////w==\n-----END OPENSSH PRIVATE KEY-----\n"),
		"bad base64":  []byte("-----BEGIN OPENSSH PRIVATE KEY-----\n!!!!\n-----END OPENSSH PRIVATE KEY-----\n"),
		"rsa garbage": []byte("-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n"),
		"too large":   bytes.Repeat([]byte("A"), MaxFileSize+1),
	}
	for name, data := range cases {
		if _, err := ParsePrivate(data); err == nil {
			t.Errorf("%s: accepted", name)
		}
		if _, err := ParsePublic(data); err == nil {
			t.Errorf("%s: accepted as public key", name)
		}
	}
}

func TestReadFileBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.pub")
	os.WriteFile(path, bytes.Repeat([]byte("A"), 3<<20), 0o644)
	if _, err := ReadFile(disk, path); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v", err)
	}
}

func FuzzParsePrivate(f *testing.F) {
	priv, _, _ := Generate(rand.Reader, "c", []byte("passphrase"))
	f.Add(priv)
	f.Add([]byte("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA/////w==\n-----END OPENSSH PRIVATE KEY-----\n"))
	f.Add([]byte("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\nAAAA\n-----END RSA PRIVATE KEY-----\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePrivate(data)
		if err == nil && p.Public == nil && !p.Encrypted {
			t.Fatal("parsed key with no public half")
		}
		// An error never quotes the file: it may be someone's key.
		if err != nil {
			for _, l := range strings.Split(string(data), "\n") {
				if l = strings.TrimSpace(l); len(l) >= 16 && strings.Contains(err.Error(), l) {
					t.Fatalf("the error quotes the file: %v", err)
				}
			}
		}
	})
}

func FuzzParsePublic(f *testing.F) {
	_, pub, _ := Generate(rand.Reader, "c", []byte("passphrase"))
	f.Add(pub)
	f.Add([]byte("ssh-ed25519 AAAA\n"))
	f.Add([]byte("# comment\n\nssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQ== x\n"))
	// Properties of every key read: its fingerprint line is ssh-keygen's
	// shape around the key's own SHA256; the key written back as a .pub
	// line reads back to the same key; the randomart is a 19×11 box.
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := ParsePublic(data)
		if err != nil {
			if entries != nil {
				t.Fatalf("entries with an error: %v", err)
			}
			return
		}
		if len(entries) == 0 {
			t.Fatal("no entry and no error")
		}
		for _, e := range entries {
			fp := ssh.FingerprintSHA256(e.Key)
			line := FingerprintLine(e.Key, e.Comment)
			if want := fmt.Sprintf("%d %s ", Bits(e.Key), fp); !strings.HasPrefix(line, want) || !strings.HasSuffix(line, " ("+TypeName(e.Key)+")") {
				t.Fatalf("fingerprint line %q: want %q… (%s)", line, want, TypeName(e.Key))
			}
			again, err := ParsePublic(PublicLine(e.Key, e.Comment))
			if err != nil || len(again) != 1 || !bytes.Equal(again[0].Key.Marshal(), e.Key.Marshal()) {
				t.Fatalf("%s does not read back: %v", fp, err)
			}
			art := strings.Split(strings.TrimSuffix(fingerprintOf(e.Key, "").Randomart(), "\n"), "\n")
			if len(art) != 11 {
				t.Fatalf("randomart of %d lines", len(art))
			}
			for _, l := range art {
				if len(l) != 19 {
					t.Fatalf("randomart line %q is not 19 wide", l)
				}
			}
		}
	})
}

func BenchmarkCreate(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s := Store{Files: disk, Dir: b.TempDir(), Name: "id", Comment: "c"}
		if _, err := s.Create(rand.Reader, []byte("passphrase")); err != nil {
			b.Fatal(err)
		}
	}
}
