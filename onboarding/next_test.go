package onboarding

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/keys/signing"
)

// TestSSHConfigReadByOpenSSH: the block is read by OpenSSH itself (`ssh
// -G` prints the configuration it would use and connects nowhere): the
// host stays the placeholder, the key is this one, even in a folder
// with a space, a quote, an apostrophe, a backslash or a % (which ssh
// reads as a token: the block doubles it, -G shows it so).
func TestSSHConfigReadByOpenSSH(t *testing.T) {
	ssh, err := exec.LookPath("ssh")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("ssh is needed in CI")
		}
		t.Skip("no ssh")
	}
	home := t.TempDir()
	for _, key := range []string{filepath.Join(home, ".ssh", "id_ed25519_romeo"), filepath.Join(home, "mes clés", "id_ed25519_romeo"), "/opt/clés/id",
		filepath.Join(home, `a"b`, "id"), filepath.Join(home, "it's", "id"), filepath.Join(home, "%d", "id"), filepath.Join(home, `a\b c`, "id"), filepath.Join(home, `a\\b`, "id"), filepath.Join(home, `end\\`, "id")} {
		block := SSHConfig(key, home)
		if !strings.HasPrefix(block, "# Séance ROMEO — remplacez NOEUD-DE-LOGIN par le nom donné par les organisateurs\nHost romeo\n") {
			t.Fatalf("block:\n%s", block)
		}
		cfg := filepath.Join(t.TempDir(), "config")
		os.WriteFile(cfg, []byte(block), 0o600)
		cmd := exec.Command(ssh, "-G", "-F", cfg, "romeo")
		cmd.Env = append(os.Environ(), "HOME="+home)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("ssh -G: %v\n%s", err, out)
		}
		got := map[string]string{}
		for _, l := range strings.Split(string(out), "\n") {
			if k, v, ok := strings.Cut(l, " "); ok {
				if _, seen := got[k]; !seen {
					got[k] = v
				}
			}
		}
		if got["hostname"] != "noeud-de-login" && got["hostname"] != HostPlaceholder {
			t.Errorf("hostname %q", got["hostname"])
		}
		if got["user"] != UserPlaceholder || got["identitiesonly"] != "yes" {
			t.Errorf("user %q identitiesonly %q", got["user"], got["identitiesonly"])
		}
		want := strings.ReplaceAll(strings.Replace(TildePath(key, home), "~", home, 1), "%", "%%")
		if gotKey := strings.Replace(got["identityfile"], "~", home, 1); gotKey != want {
			t.Errorf("identityfile %q, want %q", got["identityfile"], want)
		}
	}
}

func TestAgentCommand(t *testing.T) {
	home := "/home/kim"
	key := "/home/kim/.ssh/id_ed25519_romeo"
	for goos, want := range map[string]string{
		"linux":   "ssh-add ~/.ssh/id_ed25519_romeo",
		"freebsd": "ssh-add ~/.ssh/id_ed25519_romeo",
		"darwin":  "ssh-add --apple-use-keychain ~/.ssh/id_ed25519_romeo",
		"windows": `Start-Service ssh-agent ; ssh-add "/home/kim/.ssh/id_ed25519_romeo"`,
	} {
		if got := AgentCommand(key, home, goos); !strings.HasSuffix(got, want) {
			t.Errorf("%s: %q", goos, got)
		}
	}
	// A path a shell would split is quoted, ~/ kept outside the quotes.
	if got := AgentCommand("/home/kim/mes clés/id", home, "linux"); got != "ssh-add ~/'mes clés/id'" {
		t.Errorf("%q", got)
	}
	if got := AgentCommand("/srv/k'ey", home, "linux"); got != `ssh-add '/srv/k'\''ey'` {
		t.Errorf("%q", got)
	}
}

// TestNextSteps: the four steps in order, the channel when configured,
// the ask-first variant, the days left, and never a host name.
func TestNextSteps(t *testing.T) {
	base := Next{
		AccessFile: "/home/kim/acces.md",
		Store:      keys.Store{Files: safefile.KeyFiles{}, Dir: "/home/kim/.ssh", Name: "id_ed25519_romeo"},
		Home:       "/home/kim", GOOS: "linux",
		Session: Session{Day: testenv.Day(testenv.SessionDay)},
		Today:   testenv.Day(testenv.Today),
	}
	s := NextSteps(base)
	order := []string{"1. Envoyez acces.md aux organisateurs par le canal qu'ils ont indiqué :", "/home/kim/acces.md",
		"pret cle --publique", "2. Chargez la clé", "ssh-add ~/.ssh/id_ed25519_romeo", "3. Ajoutez ce bloc à ~/.ssh/config",
		"Host romeo", "HostName NOEUD-DE-LOGIN", "IdentityFile ~/.ssh/id_ed25519_romeo", "4. Il reste 16 jours avant la séance du jeudi 5 novembre 2026."}
	at := 0
	for _, w := range order {
		i := strings.Index(s[at:], w)
		if i < 0 {
			t.Fatalf("%q missing or out of order:\n%s", w, s)
		}
		at += i
	}
	c := base
	c.Channel = "le formulaire ROMEO"
	if s := NextSteps(c); !strings.Contains(s, "(le formulaire ROMEO)") || strings.Contains(s, "Relisez-le d'abord") {
		t.Errorf("channel missing, or a stale note for a file that is not:\n%s", s)
	}
	c.Declared = &Declaration{Status: StatusVerified, Date: time.Date(2026, 10, 26, 0, 0, 0, 0, time.UTC)}
	if s := NextSteps(c); !strings.Contains(s, "Relisez-le d'abord") || !strings.Contains(s, "pret acces --statut verifie --date 2026-10-26 --force") {
		t.Errorf("a kept file that does not state the declaration must come with the command that writes it:\n%s", s)
	}
	c = base
	c.AccessFile = ""
	if s := NextSteps(c); !strings.Contains(s, "1. Demandez le compte d'accès") || strings.Contains(s, "Envoyez acces.md") {
		t.Errorf("ask-first variant:\n%s", s)
	}
	for today, want := range map[string]string{"2026-11-04": "La séance a lieu demain", "2026-11-05": "La séance a lieu aujourd'hui", "2026-11-06": "La séance est passée"} {
		c = base
		c.Today = testenv.Day(today)
		if s := NextSteps(c); !strings.Contains(s, "4. "+want) {
			t.Errorf("%s: %s", today, s)
		}
	}
}

// TestWhere: the path is said before writing, the folder can change (a
// folder that does not exist, a file, the key's folder or one below it,
// through ~ or a link, a folder where acces.md is a folder: refused at
// once and asked again, ~ is the home), and a Git work tree (a .git
// folder or file upwards) is pointed out. A starting place pret will not
// write goes straight to the folder question.
func TestWhere(t *testing.T) {
	home := t.TempDir()
	repo := filepath.Join(home, "src", "pret")
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	os.MkdirAll(filepath.Join(repo, "docs"), 0o755)
	worktree := filepath.Join(home, "wt")
	os.MkdirAll(worktree, 0o755)
	os.WriteFile(filepath.Join(worktree, ".git"), []byte("gitdir: ../src/pret/.git/worktrees/wt\n"), 0o644)
	os.MkdirAll(filepath.Join(home, "envoi"), 0o755)
	os.WriteFile(filepath.Join(home, "un-fichier"), nil, 0o644)
	store := keys.Store{Files: safefile.KeyFiles{}, Dir: filepath.Join(home, ".ssh"), Name: "id_ed25519_romeo"}
	os.MkdirAll(filepath.Join(home, ".ssh", "sous"), 0o700)
	os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(home, "vers-ssh"))
	os.MkdirAll(filepath.Join(home, "pris", "acces.md"), 0o755)

	cases := []struct {
		name    string
		file    string
		answers []answer
		want    string
		git     bool
	}{
		{"kept", filepath.Join(home, "acces.md"), []answer{{kind: "select", enter: true}}, filepath.Join(home, "acces.md"), false},
		{"inside a repository, moved to ~/envoi", filepath.Join(repo, "docs", "acces.md"),
			[]answer{{kind: "select", text: "Non, choisir un autre dossier"}, {kind: "input", text: "~/absent"}, {kind: "input", text: "~/un-fichier"},
				{kind: "input", text: "~/.ssh"}, {kind: "input", text: "~/.ssh/sous"}, {kind: "input", text: "~/vers-ssh"}, {kind: "input", text: "~/pris"},
				{kind: "input", text: " ~/envoi "}, {kind: "select", enter: true}},
			filepath.Join(home, "envoi", "acces.md"), true},
		{"a starting place in the key folder", filepath.Join(home, ".ssh", "acces.md"),
			[]answer{{kind: "input", text: "~"}, {kind: "select", enter: true}}, filepath.Join(home, "acces.md"), false},
		{"a linked work tree (.git file)", filepath.Join(worktree, "acces.md"), []answer{{kind: "select", enter: true}}, filepath.Join(worktree, "acces.md"), true},
		{"the file's path typed for its folder", filepath.Join(home, "acces.md"),
			[]answer{{kind: "select", text: "Non, choisir un autre dossier"}, {kind: "input", text: "~/envoi/acces.md"}, {kind: "select", text: "Oui"}},
			filepath.Join(home, "envoi", "acces.md"), false},
		{"a relative answer is under the current folder", filepath.Join(home, "acces.md"),
			[]answer{{kind: "select", text: "Non, choisir un autre dossier"}, {kind: "input", text: "envoi"}, {kind: "select", text: "Oui"}},
			filepath.Join(home, "envoi", "acces.md"), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &fakePrompter{t: t, answers: tc.answers}
			var out bytes.Buffer
			got, err := Where(p, &out, tc.file, home, store, "")
			if err != nil || got != tc.want {
				t.Fatalf("Where = %q, %v; want %q\n%s", got, err, tc.want, &out)
			}
			if len(p.answers) != 0 {
				t.Fatalf("not asked: %+v", p.answers)
			}
			if !strings.Contains(out.String(), "acces.md sera écrit ici : "+tc.want) {
				t.Errorf("the path is not said:\n%s", &out)
			}
			if strings.Contains(out.String(), "dépôt Git") != tc.git {
				t.Errorf("git = %v:\n%s", !tc.git, &out)
			}
			if tc.name == "inside a repository, moved to ~/envoi" {
				for _, w := range []string{"ce dossier n'existe pas", "c'est un fichier, pas un dossier", "acces.md sera écrit ici : " + tc.want,
					filepath.Join(home, ".ssh") + " : c'est le dossier de la clé SSH", filepath.Join(home, ".ssh", "sous") + " : c'est le dossier de la clé SSH",
					filepath.Join(home, "vers-ssh") + " : c'est le dossier de la clé SSH", "acces.md y existe déjà et n'est pas un fichier"} {
					if !strings.Contains(out.String(), w) {
						t.Errorf("%q not said:\n%s", w, &out)
					}
				}
			}
		})
	}
	p := &fakePrompter{t: t, answers: []answer{{kind: "select", err: ErrInterrupted}}}
	if _, err := Where(p, &bytes.Buffer{}, filepath.Join(home, "acces.md"), home, store, ""); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("Ctrl-C: %v", err)
	}
}

func TestTildePath(t *testing.T) {
	for in, want := range map[string]string{
		"/home/kim/.ssh/id": "~/.ssh/id", "/home/kim": "~", "/home/kimberley/x": "/home/kimberley/x", "/srv/x": "/srv/x",
	} {
		if got := TildePath(in, "/home/kim"); got != want {
			t.Errorf("TildePath(%q) = %q, want %q", in, got, want)
		}
		if got := ExpandHome(TildePath(in, "/home/kim"), "/home/kim"); got != in {
			t.Errorf("round trip %q -> %q", in, got)
		}
	}
}

// TestKeyPathAccesMdCannotHold: a key path with a backquote would end
// acces.md's code span early: pret valider took it, pret verifier never
// (outside tester). Refused before anything is written.
func TestKeyPathAccesMdCannotHold(t *testing.T) {
	dir := t.TempDir()
	w, _, _ := keyedWizard(t, dir, nil)
	moved := filepath.Join(dir, "back`tick")
	if err := os.Rename(w.Store.Dir, moved); err != nil {
		t.Fatal(err)
	}
	w.Store.Dir = moved
	_, err := PlanAccess(w.Settings, Declaration{StatusRequested, testenv.Day(testenv.Today)})
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "accent grave") || !strings.Contains(e.Hint, "--cle-dossier") {
		t.Fatalf("PlanAccess = %v", err)
	}
	if _, err := os.Stat(w.File); err == nil {
		t.Fatal("acces.md written")
	}
}

// TestDiffSaysWhereAKeyIs: a private key pasted in acces.md is shown as
// empty lines in the diff, and said, by line numbers only (outside tester).
func TestDiffSaysWhereAKeyIs(t *testing.T) {
	dir := t.TempDir()
	w, _, _ := keyedWizard(t, dir, nil)
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n"
	os.WriteFile(w.File, []byte("# Accès\n\n"+key), 0o644)
	p, err := PlanAccess(w.Settings, Declaration{StatusRequested, testenv.Day(testenv.Today)})
	if err != nil {
		t.Fatal(err)
	}
	d := p.Diff(false)
	if !strings.Contains(d, "Clé privée dans "+w.File+" (actuel), lignes 3 à 5") || strings.Contains(d, "b3BlbnNz") {
		t.Fatalf("%s", d)
	}
}

// TestReplacingSignedFile: a signed acces.md whose content would change
// is said to lose its signature; the diff shows the block going.
func TestReplacingSignedFile(t *testing.T) {
	dir := t.TempDir()
	w, _, _ := keyedWizard(t, dir, nil)
	signed := "# Accès\n- Date de la demande du compte d'accès : 2026-10-01\n" + signing.SigMarker + "\n```\n-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n```\n"
	os.WriteFile(w.File, []byte(signed), 0o644)
	p, err := PlanAccess(w.Settings, Declaration{StatusRequested, testenv.Day(testenv.Today)})
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != FileDifferent || !p.Signed || !strings.Contains(p.Diff(false), "------BEGIN SSH SIGNATURE-----") {
		t.Fatalf("status %v, signed %v\n%s", p.Status, p.Signed, p.Diff(false))
	}
	os.WriteFile(w.File, []byte("# Accès à la main\n"), 0o644)
	if p, _ := PlanAccess(w.Settings, Declaration{StatusRequested, testenv.Day(testenv.Today)}); p.Signed {
		t.Fatal("an unsigned file said signed")
	}
}

// TestLaterRunFindsMovedAccess: acces.md put in another folder on the
// first run is the one a later run proposes and keeps up to date; no
// second acces.md appears in the default place.
func TestLaterRunFindsMovedAccess(t *testing.T) {
	dir := t.TempDir()
	envoi := filepath.Join(dir, "envoi")
	os.MkdirAll(envoi, 0o755)
	w, out, _ := keyedWizard(t, dir, []answer{{kind: "select", text: AnswerRequested}, {kind: "input"},
		{kind: "select", text: "Non, choisir un autre dossier"}, {kind: "input", text: envoi}, {kind: "select", text: "Oui"}})
	if err := w.Run(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	moved := filepath.Join(envoi, "acces.md")
	first, err := os.ReadFile(moved)
	if err != nil {
		t.Fatal(err)
	}
	w, out, _ = newWizard(t, dir, []answer{{kind: "select", enter: true}, {kind: "input"}, {kind: "select", enter: true}})
	if err := w.Run(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"La dernière fois, acces.md a été écrit ailleurs : " + moved, "acces.md sera écrit ici : " + moved, "est déjà à jour"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("%q not said:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "acces.md")); err == nil {
		t.Fatal("a second acces.md in the default place")
	}
	if now, _ := os.ReadFile(moved); !bytes.Equal(now, first) {
		t.Fatal("the moved acces.md changed on Enter")
	}
}
