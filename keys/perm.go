package keys

// PermProblem is a reason OpenSSH would refuse the private key, or a way
// others could replace it, with the command that repairs it (chmod on
// Unix, icacls on Windows). Store.Permissions finds them the way the
// OpenSSH of this system does: Unix modes (perm_unix.go), ACLs on
// Windows (perm_windows.go). It is called on a key that exists; its
// error is the reason the rights could not be read.
type PermProblem struct {
	Msg, Fix string
}
