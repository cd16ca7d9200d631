//go:build unix

package keys

import (
	"fmt"
	"os"
)

// Permissions follows OpenSSH on Unix: ssh refuses a private key that
// the group or others can read; a key folder others can write lets them
// swap the key. The folder is looked at through its link, if it is one:
// that is the learner's choice of folder.
func (s Store) Permissions() ([]PermProblem, error) {
	st, err := os.Stat(s.PrivatePath())
	if err != nil {
		return nil, s.Files.Explain(s.PrivatePath(), err)
	}
	var ps []PermProblem
	if m := st.Mode().Perm(); m&0o077 != 0 {
		ps = append(ps, PermProblem{
			Msg: fmt.Sprintf("la clé privée a les droits %04o : ssh la refuse, elle est lisible par d'autres", m),
			Fix: "chmod 600 " + s.PrivatePath(),
		})
	}
	if dst, err := os.Stat(s.Dir); err == nil && dst.Mode().Perm()&0o022 != 0 {
		ps = append(ps, PermProblem{
			Msg: fmt.Sprintf("le dossier %s a les droits %04o : d'autres peuvent y remplacer la clé", s.Dir, dst.Mode().Perm()),
			Fix: "chmod 700 " + s.Dir,
		})
	}
	return ps, nil
}
