package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(withBinDir{m}, map[string]func(){"pret": main})
}

// TestScripts runs the end-to-end behaviour of the command line: exit
// codes, standard output and error, files and modes, in testdata/*.txtar.
func TestScripts(t *testing.T) {
	notShort(t)
	testscript.Run(t, testscript.Params{
		Dir: "testdata",
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			setenv(env.Setenv, home)
			env.Setenv("NO_COLOR", "1")
			return os.MkdirAll(home, 0o755)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// mode FILE 0600: the permission bits of FILE, without
			// following a symbolic link.
			"mode": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 2 {
					ts.Fatalf("usage: mode FILE PERM")
				}
				st, err := os.Lstat(ts.MkAbs(args[0]))
				ts.Check(err)
				want, err := strconv.ParseUint(args[1], 8, 32)
				ts.Check(err)
				got := uint64(st.Mode().Perm())
				if (got == want) == neg {
					ts.Fatalf("%s has mode %o, want %s%o", args[0], got, map[bool]string{true: "not ", false: ""}[neg], want)
				}
			},
			// nofiles DIR PATTERN: no file of DIR matches PATTERN.
			"nofiles": func(ts *testscript.TestScript, neg bool, args []string) {
				matches, err := filepath.Glob(filepath.Join(ts.MkAbs(args[0]), args[1]))
				ts.Check(err)
				if len(matches) > 0 != neg {
					ts.Fatalf("files matching %s: %v", args[1], matches)
				}
			},
			// snapshot DIR NAME / samesnapshot DIR NAME: a folder's files
			// and contents are exactly as they were.
			"snapshot": func(ts *testscript.TestScript, neg bool, args []string) {
				ts.Setenv("SNAP_"+args[1], dirSnapshot(ts.MkAbs(args[0])))
			},
			"samesnapshot": func(ts *testscript.TestScript, neg bool, args []string) {
				if got := dirSnapshot(ts.MkAbs(args[0])); (got == ts.Getenv("SNAP_"+args[1])) == neg {
					ts.Fatalf("folder %s changed", args[0])
				}
			},
		},
	})
}
