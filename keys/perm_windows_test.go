package keys

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/windows"
)

// TestIcaclsFix: the repair cuts inheritance, gives the owner full
// control and removes each other account, quoted for PowerShell and cmd.
func TestIcaclsFix(t *testing.T) {
	got := icacls(`C:\Users\kim lê\.ssh\id_ed25519_romeo`, `PC\kim`, "F", []string{`BUILTIN\Users`, "Everyone"})
	want := `icacls "C:\Users\kim lê\.ssh\id_ed25519_romeo" /inheritance:r /grant:r "PC\kim:F" /remove:g "BUILTIN\Users" "Everyone"`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// TestPermissionsWindows: a key made by Create passes; a key whose ACL
// lets Everyone read it is a problem, fixed with icacls.
func TestPermissionsWindows(t *testing.T) {
	s := Store{Files: disk, Dir: t.TempDir(), Name: "id", Comment: "c"}
	if _, err := s.Create(nil, []byte("une passphrase longue")); err != nil {
		t.Fatal(err)
	}
	if underWine {
		t.Skip("sous Wine 8, GetNamedSecurityInfo renvoie une DACL déduite du mode Unix (lecture pour Everyone), pas celle qui a été écrite : la lecture des ACL n'y est pas fiable")
	}
	if ps, err := s.Permissions(); err != nil || len(ps) != 0 {
		t.Fatalf("fresh key: %+v %v", ps, err)
	}
	open := filepath.Join(s.Dir, "ouverte")
	os.WriteFile(open, []byte("x"), 0o600)
	sd, err := windows.SecurityDescriptorFromString("D:P(A;;FA;;;OW)(A;;FR;;;WD)")
	if err != nil {
		t.Fatal(err)
	}
	dacl, _, _ := sd.DACL()
	if err := windows.SetNamedSecurityInfo(open, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil); err != nil {
		t.Fatal(err)
	}
	ps, err := Store{Files: disk, Dir: s.Dir, Name: "ouverte"}.Permissions()
	if err != nil || len(ps) != 1 || !strings.HasPrefix(ps[0].Fix, `icacls "`+open+`" /inheritance:r /grant:r`) || !strings.Contains(ps[0].Fix, "/remove:g") {
		t.Fatalf("key readable by Everyone: %+v %v", ps, err)
	}
}
