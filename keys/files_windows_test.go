package keys

import (
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"
)

// TestPrivateKeyOwnerOnlyACL: the private key's DACL is protected and
// grants access to its owner alone, as Windows' OpenSSH requires.
func TestPrivateKeyOwnerOnlyACL(t *testing.T) {
	s := Store{Files: disk, Dir: t.TempDir(), Name: "id", Comment: "c"}
	if _, err := s.Create(nil, []byte("une passphrase longue")); err != nil {
		t.Fatal(err)
	}
	if underWine {
		t.Skip("sous Wine 8, GetNamedSecurityInfo renvoie une DACL déduite du mode Unix (SYSTEM, le propriétaire, lecture pour Everyone), pas celle qui a été écrite : la relecture n'y est pas fiable")
	}
	sd, err := windows.GetNamedSecurityInfo(s.PrivatePath(), windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION|windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		t.Fatal(err)
	}
	control, _, _ := sd.Control()
	if control&windows.SE_DACL_PROTECTED == 0 {
		t.Error("DACL not protected from inheritance")
	}
	owner, _, _ := sd.Owner()
	dacl, _, _ := sd.DACL()
	if dacl == nil {
		t.Fatal("no DACL: everyone has access")
	}
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			t.Fatal(err)
		}
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
		if !sid.Equals(owner) {
			t.Errorf("ACE %d grants %s, not the owner", i, sid)
		}
	}
}
