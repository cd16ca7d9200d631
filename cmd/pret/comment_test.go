package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/testenv"
)

// TestForeignCommentEscaped (issue 32): a key made with ssh-keygen -C and
// a comment holding ESC, BEL, U+202E or U+2028 is written escaped into
// acces.md (by pret acces, as by the wizard: both render it), as ssh-keygen
// -lf shows it; acces.md stays valid.
func TestForeignCommentEscaped(t *testing.T) {
	t.Parallel()
	keygen := testenv.NeedTool(t, "ssh-keygen")
	comment := "kim\x1b[31m\a\u202eevil\u2028x"
	h := newHome(t)
	os.MkdirAll(h.path(".ssh"), 0o700)
	if out, err := exec.Command(keygen, "-q", "-t", "ed25519", "-N", secretPass, "-C", comment, "-f", h.path(".ssh/id_ed25519_romeo")).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	r := h.must(exitOK, "", "acces", "--statut", "demande")
	data, _ := os.ReadFile(h.path("acces.md"))
	if strings.ContainsAny(string(data)+r.stdout+r.stderr, "\x1b\a\u202e\u2028") {
		t.Fatalf("a control or bidi character written raw:\n%q", data)
	}
	if !strings.Contains(string(data), `kim\033[31m\007\342\200\256evil\342\200\250x (ED25519)`) {
		t.Fatalf("the comment is not escaped as ssh-keygen -lf does:\n%s", data)
	}
	res := acces.Validate(data, acces.Rules{KeyName: "id_ed25519_romeo.pub", SessionDay: testenv.Day(testenv.SessionDay), Today: testenv.Day(testenv.Today)})
	if !res.Valid() {
		t.Fatalf("acces.md not valid: %+v", res.Problems)
	}
}
