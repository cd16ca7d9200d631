package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

var kinds = []Kind{Key, Access, Config, State, Template, Passphrase}

// hostile is one input no reader may hang on, allocate for, or report in
// English. want is the error it must give, by follow mode.
type hostile struct {
	name     string
	path     func(t *testing.T) string
	noFollow error // nil: any *Error will do
	follow   error
}

func hostileInputs(t *testing.T) []hostile {
	out := t.TempDir()
	outside := filepath.Join(out, "ailleurs.txt")
	if err := os.WriteFile(outside, []byte("secret d'ailleurs\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := func(target string) func(t *testing.T) string {
		return func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "lien")
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	hs := []hostile{
		{"devnull", func(*testing.T) string { return os.DevNull }, ErrNotRegular, ErrNotRegular},
		{"lien-vers-devzero", link("/dev/zero"), ErrSymlink, ErrNotRegular},
		{"lien-sortant", link(outside), ErrSymlink, nil},
		{"dossier", func(t *testing.T) string { return t.TempDir() }, ErrNotRegular, ErrNotRegular},
		{"sparse-3Go", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "gros")
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(3 << 30); err != nil {
				t.Skipf("pas de fichier creux ici : %v", err)
			}
			return p
		}, ErrTooLarge, ErrTooLarge},
		{"chemin-trop-long", func(t *testing.T) string {
			return filepath.Join(t.TempDir(), strings.Repeat("a", 300), "x")
		}, nil, nil},
		{"chemin-tres-long", func(t *testing.T) string {
			return t.TempDir() + strings.Repeat("/abcdefgh", 600)
		}, nil, nil},
		{"absent", func(t *testing.T) string { return filepath.Join(t.TempDir(), "rien") }, nil, nil},
		{"boucle-de-liens", func(t *testing.T) string {
			d := t.TempDir()
			os.Symlink(filepath.Join(d, "b"), filepath.Join(d, "a"))
			os.Symlink(filepath.Join(d, "a"), filepath.Join(d, "b"))
			return filepath.Join(d, "a")
		}, ErrSymlink, nil},
		{"sous-un-fichier", func(t *testing.T) string { return filepath.Join(outside, "x") }, nil, nil},
	}
	if runtime.GOOS != "windows" {
		// The null device above is /dev/null; /dev/zero never ends.
		hs = append(hs, hostile{"devzero-vrai", func(*testing.T) string { return "/dev/zero" }, ErrNotRegular, ErrNotRegular})
		hs = append(hs, hostile{"fifo", func(t *testing.T) string { return mkfifo(t) }, ErrNotRegular, ErrNotRegular})
	}
	return hs
}

// TestReadHostile: every kind x follow mode x hostile input ends within a
// deadline, allocates about nothing, and gives a French error of the
// right kind.
func TestReadHostile(t *testing.T) {
	for _, h := range hostileInputs(t) {
		for _, k := range kinds {
			for _, follow := range []Follow{NoFollow, FollowLink} {
				t.Run(h.name+"/"+k.Name+"/"+map[Follow]string{true: "suivi", false: "non-suivi"}[follow], func(t *testing.T) {
					path := h.path(t)
					want := h.noFollow
					if follow {
						want = h.follow
					}
					data, err, alloc := readWithDeadline(t, path, k, follow)
					if h.name == "lien-sortant" && follow {
						if err != nil || string(data) != "secret d'ailleurs\n" {
							t.Fatalf("lien suivi : %q, %v", data, err)
						}
						return
					}
					if err == nil {
						t.Fatalf("lu sans erreur : %d octets", len(data))
					}
					checkFrench(t, err)
					if want != nil && !errors.Is(err, want) {
						t.Errorf("erreur %v, attendu %v", err, want)
					}
					if alloc > 64<<10 {
						t.Errorf("%d octets alloués pour un refus", alloc)
					}
				})
			}
		}
	}
}

// readWithDeadline fails the test instead of hanging it.
func readWithDeadline(t *testing.T, path string, k Kind, follow Follow) ([]byte, error, uint64) {
	t.Helper()
	type result struct {
		data  []byte
		err   error
		alloc uint64
	}
	done := make(chan result, 1)
	go func() {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		data, err := Read(path, k, follow)
		runtime.ReadMemStats(&after)
		done <- result{data, err, after.TotalAlloc - before.TotalAlloc}
	}()
	select {
	case r := <-done:
		return r.data, r.err, r.alloc
	case <-time.After(10 * time.Second):
		t.Fatalf("lecture de %s bloquée plus de 10 s", path)
	}
	return nil, nil, 0
}

// checkFrench: the reason names the path's problem in French and
// carries none of the system's English (the path may hold any word).
func checkFrench(t *testing.T, err error) {
	t.Helper()
	msg := Reason(err)
	for _, en := range []string{"no such", "permission denied", "too many levels", "resource", "device", "space left",
		"directory", "file name too long", "too large", "open ", "stat ", "read ", "errno", "invalid argument"} {
		if strings.Contains(strings.ToLower(msg), en) {
			t.Errorf("anglais dans l'erreur : %q", msg)
		}
	}
	var fe *Error
	if !errors.As(err, &fe) || fe.Reason == "" {
		t.Errorf("pas une *safefile.Error avec sa raison : %#v", err)
	}
}

// TestReadCapExact: a file of exactly the cap is read whole; one byte
// more is refused, never cut.
func TestReadCapExact(t *testing.T) {
	for _, k := range kinds {
		d := t.TempDir()
		at := filepath.Join(d, "pile")
		over := filepath.Join(d, "trop")
		os.WriteFile(at, bytes.Repeat([]byte("a"), int(k.Max)), 0o600)
		os.WriteFile(over, bytes.Repeat([]byte("a"), int(k.Max)+1), 0o600)
		data, err := Read(at, k, NoFollow)
		if err != nil || int64(len(data)) != k.Max {
			t.Errorf("%s : au plafond, %d octets lus, %v", k.Name, len(data), err)
		}
		if _, err := Read(over, k, NoFollow); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s : au-delà du plafond, %v", k.Name, err)
		} else if !strings.Contains(err.Error(), size(k.Max)) {
			t.Errorf("le message ne dit pas le plafond : %v", err)
		}
	}
}

// TestReasonNeverEnglish: every error number the system has gets French
// or its number, never the system's text.
func TestReasonNeverEnglish(t *testing.T) {
	for n := 1; n < 140; n++ {
		e := syscall.Errno(n)
		r := Reason(e)
		if r == "" || e.Error() != "" && strings.Contains(r, e.Error()) {
			t.Errorf("errno %d : %q", n, r)
		}
	}
	if r := Reason(errors.New("some english")); strings.Contains(r, "english") {
		t.Errorf("texte anglais repris : %q", r)
	}
}

func BenchmarkReadAccess(b *testing.B) {
	p := filepath.Join(b.TempDir(), "acces.md")
	os.WriteFile(p, []byte(strings.Repeat("ligne de texte d'un acces.md\n", 30)), 0o600)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(p, Access, NoFollow); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReadInIsReadNoFollow: reading a name in an open folder (the walk
// of pret valider) gives what reading its path without following a
// link gives, bytes and French error alike, for every hostile input and
// kind, and for files around each cap.
func TestReadInIsReadNoFollow(t *testing.T) {
	type input struct {
		name string
		path string
	}
	var inputs []input
	for _, h := range hostileInputs(t) {
		inputs = append(inputs, input{h.name, h.path(t)})
	}
	dir := t.TempDir()
	for _, k := range kinds {
		for _, n := range []int64{0, 1, k.Max - 1, k.Max, k.Max + 1} {
			p := filepath.Join(dir, fmt.Sprintf("%s-%d", k.Name, n))
			if err := os.WriteFile(p, bytes.Repeat([]byte("é\n"), int(n/3+1))[:n], 0o600); err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, input{filepath.Base(p), p})
		}
	}
	compared := 0
	for _, in := range inputs {
		d, err := os.Open(filepath.Dir(in.path))
		if err != nil {
			continue // no folder to list: the walk never gets to its files
		}
		for _, k := range kinds {
			want, wantErr := Read(in.path, k, NoFollow)
			got, _, gotErr := ReadIn(d, filepath.Base(in.path), in.path, k)
			if !bytes.Equal(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("%s, %s: ReadIn %q, %v; Read %q, %v", in.name, k.Name, got, gotErr, want, wantErr)
			}
			for _, sentinel := range []error{ErrNotRegular, ErrSymlink, ErrTooLarge} {
				if errors.Is(gotErr, sentinel) != errors.Is(wantErr, sentinel) {
					t.Errorf("%s, %s: ReadIn and Read disagree on %v", in.name, k.Name, sentinel)
				}
			}
			compared++
		}
		d.Close()
	}
	if compared < 100 {
		t.Fatalf("only %d comparisons", compared)
	}
	// A name is one name: a path given as a name is not walked.
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, _, err := ReadIn(d, "../"+filepath.Base(dir)+"/"+Key.Name+"-1", "x", Key); err == nil {
		t.Error("a name holding a separator was read")
	}
}
