package keys

import (
	"io/fs"
	"os"
	"testing"
)

// underWine is set by .ci/wine/test, which runs the Windows test binaries
// under Wine: the only place where a test may skip for Wine's reasons.
var underWine = os.Getenv("PRET_WINE") == "1"

// symlinkOrSkip makes a symbolic link, or skips under Wine 8, whose
// CreateSymbolicLinkW is a stub: it reports success and creates nothing,
// and Wine has no reparse points (no junction either), so there is no
// link to refuse. Everywhere else a failure is fatal.
func symlinkOrSkip(t *testing.T, target, link string) {
	t.Helper()
	err := os.Symlink(target, link)
	if underWine {
		if st, lerr := os.Lstat(link); err != nil || lerr != nil || st.Mode()&fs.ModeSymlink == 0 {
			t.Skip("sous Wine 8, CreateSymbolicLinkW ne crée rien et les points d'analyse (jonctions) n'existent pas : aucun lien à refuser")
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}
