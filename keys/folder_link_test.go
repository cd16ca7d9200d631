package keys

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestKeyFolderMayBeALink: a key folder that is a link to a folder (the
// learner's choice, ~/.ssh -> elsewhere) is followed; the key files are
// made in its target. A dangling folder link is refused without making
// anything, and a key file that is a link is never followed.
func TestKeyFolderMayBeALink(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "ailleurs")
	os.Mkdir(target, 0o700)
	link := filepath.Join(root, "ssh")
	symlinkOrSkip(t, target, link)
	s := Store{Files: disk, Dir: link, Name: "id", Comment: "c"}
	st, err := s.Create(nil, []byte("une passphrase longue"))
	if err != nil || st.Kind != Present {
		t.Fatalf("dossier lien : %v", err)
	}
	if _, err := os.Lstat(filepath.Join(target, "id")); err != nil {
		t.Fatalf("la clé n'est pas dans la cible du lien : %v", err)
	}

	dangling := Store{Files: disk, Dir: filepath.Join(root, "pendant"), Name: "id"}
	os.Symlink(filepath.Join(root, "nulle-part"), dangling.Dir)
	if _, err := dangling.Create(nil, []byte("une passphrase longue")); !errors.Is(err, ErrSymlink) {
		t.Fatalf("lien pendant : %v", err)
	}
	if _, err := os.Lstat(filepath.Join(root, "nulle-part")); err == nil {
		t.Fatal("la cible du lien pendant a été créée")
	}

	keyLink := Store{Files: disk, Dir: t.TempDir(), Name: "id"}
	os.Symlink(filepath.Join(target, "id"), keyLink.PrivatePath())
	if _, err := keyLink.Inspect(); !errors.Is(err, ErrSymlink) {
		t.Fatalf("clé en lien : %v", err)
	}
}
