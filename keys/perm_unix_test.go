//go:build unix

package keys

import (
	"os"
	"strings"
	"testing"
)

// TestPermissionsUnix: every mode that lets the group or others read the
// key, or write in its folder, is a problem with its chmod; 0600 in a
// 0700 folder is none.
func TestPermissionsUnix(t *testing.T) {
	s := Store{Files: disk, Dir: t.TempDir(), Name: "id", Comment: "c"}
	if _, err := s.Create(nil, []byte("une passphrase longue")); err != nil {
		t.Fatal(err)
	}
	if ps, err := s.Permissions(); err != nil || len(ps) != 0 {
		t.Fatalf("fresh key: %v %v", ps, err)
	}
	for bit := os.FileMode(1); bit <= 0o777; bit <<= 1 {
		os.Chmod(s.PrivatePath(), 0o600|bit)
		ps, _ := s.Permissions()
		if want := bit&0o077 != 0; (len(ps) == 1) != want || want && ps[0].Fix != "chmod 600 "+s.PrivatePath() {
			t.Errorf("key %04o: %+v", 0o600|bit, ps)
		}
		os.Chmod(s.PrivatePath(), 0o600)
		os.Chmod(s.Dir, 0o700|bit)
		ps, _ = s.Permissions()
		if want := bit&0o022 != 0; (len(ps) == 1) != want || want && !strings.HasPrefix(ps[0].Fix, "chmod 700 ") {
			t.Errorf("folder %04o: %+v", 0o700|bit, ps)
		}
		os.Chmod(s.Dir, 0o700)
	}
}
