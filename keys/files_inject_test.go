package keys

import (
	"crypto/rand"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TestImportsNoOtherPackageOfPret: keys depends on x/crypto only, on
// every system pret is built for; the file system reaches it through
// Files, handed in by the callers. Beside the standard library, the only
// modules it may pull in are golang.org/x/crypto and golang.org/x/sys,
// which x/crypto brings on every system: anything else (sshsig, a CLI
// library) belongs in a package above keys, such as keys/signing.
func TestImportsNoOtherPackageOfPret(t *testing.T) {
	if underWine {
		// The Windows binary under Wine has no go command to ask; the run
		// on the host lists the Windows build too (GOOS=windows below).
		t.Skip("sous Wine, pas de commande go : la liste des dépendances Windows est vérifiée sur l'hôte")
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		gobin = "go"
	}
	allowed := map[string]bool{"golang.org/x/crypto": true, "golang.org/x/sys": true}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		cmd := exec.Command(gobin, "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}} {{with .Module}}{{.Path}}{{end}}", ".")
		cmd.Env = append(os.Environ(), "GOOS="+goos)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("GOOS=%s go list -deps: %v", goos, err)
		}
		self, std := "", 0
		var pret, others []string
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 || len(f) > 3 {
				t.Fatalf("GOOS=%s: unexpected go list line %q", goos, line)
			}
			p, module := f[0], ""
			if len(f) == 3 {
				module = f[2]
			}
			switch {
			case f[1] == "true":
				std++ // the standard library, vendored x/ packages included
			case strings.HasPrefix(p, "github.com/romeo-pret/"):
				pret = append(pret, p)
				if strings.HasSuffix(p, "/keys") {
					self = p
				}
			case !allowed[module]:
				others = append(others, p+" ("+module+")")
			}
		}
		// A format or go command that stopped answering would list
		// nothing and pass: keys uses the standard library, always.
		if std == 0 {
			t.Fatalf("GOOS=%s: go list named no standard package:\n%s", goos, out)
		}
		if self == "" || len(pret) != 1 || pret[0] != self {
			t.Errorf("GOOS=%s: keys depends on %v; it may import no other package of pret", goos, pret)
		}
		if len(others) > 0 {
			t.Errorf("GOOS=%s: keys depends on %v; beside the standard library it may use golang.org/x/crypto and golang.org/x/sys only", goos, others)
		}
	}
}

var errFake = errors.New("refusé par le faux système de fichiers")

type readCall struct {
	path   string
	max    int64
	follow bool
}

// fakeFiles passes each read, lock, stage, link and sync to the real
// Files after recording it, and refuses the ones named in refuse; it
// proves keys goes through the Files it is given, and nowhere else.
type fakeFiles struct {
	Files  // IsLink, Staged and Explain: disk's, unrecorded
	mu     sync.Mutex
	reads  []readCall
	calls  []string
	refuse map[string]error
}

func (f *fakeFiles) record(op, path string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	call := op + " " + filepath.Base(path)
	f.calls = append(f.calls, call)
	if err := f.refuse[call]; err != nil {
		return err
	}
	return f.refuse[op]
}

func (f *fakeFiles) Read(path string, max int64, follow bool) ([]byte, error) {
	f.mu.Lock()
	f.reads = append(f.reads, readCall{path, max, follow})
	f.mu.Unlock()
	if err := f.record("read", path); err != nil {
		return nil, err
	}
	return disk.Read(path, max, follow)
}

func (f *fakeFiles) Stage(path string, data []byte, perm fs.FileMode) (func() error, func(), error) {
	if err := f.record("stage", path); err != nil {
		return nil, nil, err
	}
	link, discard, err := disk.Stage(path, data, perm)
	if err != nil {
		return nil, nil, err
	}
	return func() error {
		if err := f.record("link", path); err != nil {
			return err
		}
		return link()
	}, discard, nil
}

func (f *fakeFiles) LockDir(dir string) (func(), error) {
	if err := f.record("lock", dir); err != nil {
		return nil, err
	}
	return disk.LockDir(dir)
}

func (f *fakeFiles) SyncDir(dir string) error {
	if err := f.record("sync", dir); err != nil {
		return err
	}
	return disk.SyncDir(dir)
}

func (f *fakeFiles) did(op string) bool {
	for _, c := range f.calls {
		if strings.HasPrefix(c, op+" ") {
			return true
		}
	}
	return false
}

// TestInjectedFilesAreUsed: every read, lock, stage, link and sync keys
// does goes through the Files it was handed, with the key's own rules
// (64 Kio, no link followed where pret found the file itself); a refusal
// from it surfaces and nothing is written.
func TestInjectedFilesAreUsed(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	pass := []byte("une passphrase longue")
	t.Run("create and inspect", func(t *testing.T) {
		f := &fakeFiles{Files: disk}
		s := Store{Files: f, Dir: filepath.Join(t.TempDir(), "ssh"), Name: "id", Comment: "c"}
		if _, err := s.Create(rand.Reader, pass); err != nil {
			t.Fatal(err)
		}
		for _, op := range []string{"lock", "stage", "link", "sync", "read"} {
			if !f.did(op) {
				t.Errorf("Create never called %s on its Files: %v", op, f.calls)
			}
		}
		for _, r := range f.reads {
			if r.max != MaxFileSize || r.follow {
				t.Errorf("Inspect read %s with max %d, follow %v", r.path, r.max, r.follow)
			}
		}
		f.reads = nil
		if _, err := FingerprintFile(f, s.PrivatePath(), nil); err != nil {
			t.Fatal(err)
		}
		if len(f.reads) == 0 || !f.reads[0].follow || f.reads[0].max != MaxFileSize {
			t.Errorf("FingerprintFile reads %v; want the named file, links followed, 64 Kio", f.reads)
		}
	})
	for _, op := range []string{"lock", "stage", "link", "sync"} {
		t.Run("refused "+op, func(t *testing.T) {
			f := &fakeFiles{Files: disk, refuse: map[string]error{op: errFake}}
			dir := t.TempDir()
			s := Store{Files: f, Dir: dir, Name: "id", Comment: "c"}
			_, err := s.Create(rand.Reader, pass)
			if !errors.Is(err, errFake) {
				t.Fatalf("Create with %s refused gives %v", op, err)
			}
			if op != "sync" {
				// Refused before the names were given: no key, no .pub,
				// no temporary file.
				left, _ := os.ReadDir(dir)
				for _, e := range left {
					if e.Name() != ".pret.lock" { // the Windows folder lock
						t.Errorf("%s refused, yet %s is in the folder", op, e.Name())
					}
				}
			}
			if err := WriteNew(f, filepath.Join(t.TempDir(), "k"), []byte("x"), 0o600); op != "lock" && !errors.Is(err, errFake) {
				t.Errorf("WriteNew with %s refused gives %v", op, err)
			}
		})
	}
	t.Run("refused link of the .pub", func(t *testing.T) {
		// The private key is linked first; when its .pub cannot be, the
		// pair is taken back: no key without its .pub, no temporary file.
		f := &fakeFiles{Files: disk, refuse: map[string]error{"link id.pub": errFake}}
		dir := t.TempDir()
		s := Store{Files: f, Dir: dir, Name: "id", Comment: "c"}
		if _, err := s.Create(rand.Reader, pass); !errors.Is(err, errFake) {
			t.Fatalf("Create gives %v", err)
		}
		if !f.did("link") {
			t.Fatalf("no link: %v", f.calls)
		}
		left, _ := os.ReadDir(dir)
		for _, e := range left {
			if e.Name() != ".pret.lock" {
				t.Errorf("left after a refused .pub: %s", e.Name())
			}
		}
	})
	t.Run("refused read", func(t *testing.T) {
		f := &fakeFiles{Files: disk}
		s := Store{Files: f, Dir: t.TempDir(), Name: "id", Comment: "c"}
		if _, err := s.Create(rand.Reader, pass); err != nil {
			t.Fatal(err)
		}
		f.refuse = map[string]error{"read": errFake}
		if _, err := s.Inspect(); !errors.Is(err, errFake) {
			t.Errorf("Inspect gives %v", err)
		}
		if _, err := ReadFile(f, s.PrivatePath()); !errors.Is(err, errFake) {
			t.Errorf("ReadFile gives %v", err)
		}
		if _, err := FingerprintFile(f, s.PublicPath(), nil); !errors.Is(err, errFake) {
			t.Errorf("FingerprintFile gives %v", err)
		}
	})
}

// marked errors stand for a Files' refusals that keys turns into its own.
type markErr struct{ link, large, taken bool }

func (e markErr) Error() string      { return "marqué" }
func (e markErr) SymbolicLink() bool { return e.link }
func (e markErr) TooLarge() bool     { return e.large }
func (e markErr) Exists() bool       { return e.taken }

// TestFilesMarks: the failures a Files marks become keys' errors, named
// after the path, in French.
func TestFilesMarks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "id")
	for _, c := range []struct {
		op   string // "read" (ReadFile) or "link" (WriteNew)
		mark markErr
		want error
	}{
		{"read", markErr{link: true}, ErrSymlink},
		{"read", markErr{large: true}, ErrTooLarge},
		{"link", markErr{link: true}, ErrSymlink},
		{"link", markErr{taken: true}, ErrExists},
	} {
		f := &fakeFiles{Files: disk, refuse: map[string]error{c.op: c.mark}}
		var err error
		if c.op == "read" {
			_, err = ReadFile(f, path)
		} else {
			err = WriteNew(f, path, []byte("x"), 0o600)
		}
		if !errors.Is(err, c.want) || !strings.HasPrefix(err.Error(), path+" : ") {
			t.Errorf("%s %+v: %v, want %v", c.op, c.mark, err, c.want)
		}
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused link left %s: %v", path, err)
	}
}
