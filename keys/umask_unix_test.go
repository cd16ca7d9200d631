//go:build unix

package keys

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Unix modes whatever the umask; Windows has ACLs instead (acl_windows_test.go).
func TestCreateModesWhateverUmask(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	for _, mask := range []int{0, 0o022, 0o077, 0o277} {
		old := syscall.Umask(mask)
		dir := filepath.Join(t.TempDir(), "a", ".ssh")
		s := Store{Files: disk, Dir: dir, Name: "id", Comment: "c"}
		_, err := s.Create(rand.Reader, []byte("passphrase"))
		syscall.Umask(old)
		if err != nil {
			t.Fatalf("umask %o: %v", mask, err)
		}
		for path, want := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, s.PrivatePath(): 0o600, s.PublicPath(): 0o644} {
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode() != want {
				t.Errorf("umask %o: %s has mode %v, want %v", mask, path, st.Mode(), want)
			}
		}
		assertNoTemp(t, dir)
	}
}
