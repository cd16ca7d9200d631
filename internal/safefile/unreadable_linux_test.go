package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// TestReadUnreadable: a file with mode 000 gives "permission refusée".
// Root ignores modes, so as root the read runs on a thread whose file
// system identity is nobody's: the kernel then drops the capabilities
// that bypass modes, exactly as for an ordinary user.
func TestReadUnreadable(t *testing.T) {
	d := t.TempDir()
	os.Chmod(d, 0o755)
	p := filepath.Join(d, "ferme")
	if err := os.WriteFile(p, []byte("x"), 0o000); err != nil {
		t.Fatal(err)
	}
	for _, k := range kinds {
		for _, follow := range []Follow{NoFollow, FollowLink} {
			err := asNobody(t, func() error { _, err := Read(p, k, follow); return err })
			if !errors.Is(err, fs.ErrPermission) {
				t.Fatalf("%s : %v, attendu permission refusée", k.Name, err)
			}
			checkFrench(t, err)
			if want := p + " : permission refusée"; err.Error() != want {
				t.Errorf("%q, attendu %q", err.Error(), want)
			}
		}
	}
}

func asNobody(t *testing.T, f func() error) error {
	if os.Geteuid() != 0 {
		return f()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	prev, _ := unix.SetfsuidRetUid(65534)
	defer unix.SetfsuidRetUid(prev)
	if cur, _ := unix.SetfsuidRetUid(-1); cur != 65534 {
		t.Skipf("setfsuid refusé ici (%d) : impossible de tester un fichier illisible en root", cur)
	}
	return f()
}
