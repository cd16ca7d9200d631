package keys

// PermProblem is a reason OpenSSH would refuse the private key, or a way
// others could replace it, with the command that repairs it (chmod on
// Unix, icacls on Windows).
type PermProblem struct {
	Msg, Fix string
}

// Permissions looks at who may read the private key and who may write in
// its folder, the way the OpenSSH of this system does: Unix modes here,
// ACLs on Windows (perm_unix.go, perm_windows.go). It is called on a key
// that exists; err is the reason the rights could not be read.
func (s Store) Permissions() ([]PermProblem, error) { return s.permissions() }
