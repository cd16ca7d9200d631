//go:build windows

package keys

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Permissions follows Windows' OpenSSH: it refuses a private key whose
// ACL lets anyone but its owner, SYSTEM or the Administrators read it.
// A key folder others may write in lets them swap the key.
func (s Store) Permissions() ([]PermProblem, error) {
	var ps []PermProblem
	others, owner, err := grantsToOthers(s.PrivatePath(), readRights)
	if err != nil {
		return nil, s.Files.Explain(s.PrivatePath(), err)
	}
	if len(others) > 0 {
		ps = append(ps, PermProblem{
			Msg: fmt.Sprintf("la clé privée est lisible par %s : OpenSSH pour Windows la refuse", strings.Join(others, ", ")),
			Fix: icacls(s.PrivatePath(), owner, "F", others),
		})
	}
	others, owner, err = grantsToOthers(s.Dir, writeRights)
	if err == nil && len(others) > 0 {
		ps = append(ps, PermProblem{
			Msg: fmt.Sprintf("le dossier %s est modifiable par %s : d'autres peuvent y remplacer la clé", s.Dir, strings.Join(others, ", ")),
			Fix: icacls(s.Dir, owner, "(OI)(CI)F", others),
		})
	}
	return ps, nil
}

// winnt.h's FILE_READ_DATA (1), FILE_ADD_FILE (2) and FILE_DELETE_CHILD
// (0x40), which x/sys/windows does not name. Writing a folder is adding or
// deleting a file in it, or changing its ACL or owner.
const (
	readRights  = 0x0001 | windows.GENERIC_READ | windows.GENERIC_ALL
	writeRights = 0x0002 | 0x0040 | windows.WRITE_DAC | windows.WRITE_OWNER | windows.GENERIC_WRITE | windows.GENERIC_ALL
)

// grantsToOthers lists the accounts, other than the owner, SYSTEM and
// the Administrators, that an "allow" entry of path's DACL gives one of
// rights. A missing DACL gives everyone everything.
func grantsToOthers(path string, rights windows.ACCESS_MASK) (others []string, owner string, err error) {
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return nil, "", err
	}
	ownerSID, _, err := sd.Owner()
	dacl, _, err2 := sd.DACL()
	if err = errors.Join(err, err2); err != nil {
		return nil, "", err
	}
	owner = accountName(ownerSID)
	if dacl == nil {
		return []string{"tout le monde (aucune ACL)"}, owner, nil
	}
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return nil, "", err
		}
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
		if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE || ace.Mask&rights == 0 || sid.Equals(ownerSID) ||
			sid.IsWellKnown(windows.WinLocalSystemSid) || sid.IsWellKnown(windows.WinBuiltinAdministratorsSid) {
			continue
		}
		if name := accountName(sid); !slices.Contains(others, name) {
			others = append(others, name)
		}
	}
	return others, owner, nil
}

// accountName is DOMAIN\name, or the SID's string when it has no name.
func accountName(sid *windows.SID) string {
	switch account, domain, _, err := sid.LookupAccount(""); {
	case err != nil:
		return sid.String()
	case domain == "":
		return account
	default:
		return domain + `\` + account
	}
}

// icacls leaves path to its owner alone: inherited entries cut, the owner's grant
// replaced by full control, the others' removed. It runs as is in PowerShell and cmd.
func icacls(path, owner, perm string, others []string) string {
	return fmt.Sprintf(`icacls "%s" /inheritance:r /grant:r "%s:%s" /remove:g "%s"`,
		path, owner, perm, strings.Join(others, `" "`))
}
