//go:build unix

package learner

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys"
)

// TestAccessFileHostile: whatever sits where acces.md belongs - a FIFO,
// a link to /dev/zero, a 3 GB sparse file, a folder, a link out - the
// checklist ends, says acces-present fails in French, and reads nothing
// of it.
func TestAccessFileHostile(t *testing.T) {
	d := t.TempDir()
	outside := filepath.Join(d, "dehors.md")
	os.WriteFile(outside, []byte("# Accès\n"), 0o644)
	kinds := map[string]func(p string) error{
		"fifo":         func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"lien-devzero": func(p string) error { return os.Symlink("/dev/zero", p) },
		"lien-dehors":  func(p string) error { return os.Symlink(outside, p) },
		"dossier":      func(p string) error { return os.Mkdir(p, 0o755) },
		"creux-3Go": func(p string) error {
			f, err := os.Create(p)
			if err != nil {
				return err
			}
			defer f.Close()
			return f.Truncate(3 << 30)
		},
	}
	for name, create := range kinds {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "acces.md")
			if err := create(p); err != nil {
				t.Fatal(err)
			}
			l := Learner{
				Store:      keys.Store{Files: safefile.KeyFiles{}, Dir: t.TempDir(), Name: "id"},
				AccessFile: p,
				SessionDay: time.Date(2026, 11, 5, 0, 0, 0, 0, time.UTC),
				Today:      time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC),
			}
			done := make(chan *checklist.Report, 1)
			go func() { done <- l.Check() }()
			var r *checklist.Report
			select {
			case r = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("pret verifier bloqué sur acces.md")
			}
			for _, c := range r.Checks {
				if c.ID != "acces-present" {
					continue
				}
				if c.Status != checklist.Fail || !strings.Contains(c.Message, "illisible : ") {
					t.Errorf("%+v", c)
				}
				for _, en := range []string{"denied", "symbolic", "not a", "directory", "too large", "resource"} {
					if strings.Contains(c.Message, en) {
						t.Errorf("anglais : %q", c.Message)
					}
				}
				return
			}
			t.Fatal("pas de contrôle acces-present")
		})
	}
}
