package onboarding

import (
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode"

	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys"
)

// TestPassphraseRefusesUntypable: a control character or a byte that is
// not UTF-8, anywhere in an otherwise good passphrase, is refused with a
// French reason that does not repeat the passphrase.
func TestPassphraseRefusesUntypable(t *testing.T) {
	good := "une passphrase longue"
	var bad []string
	for r := rune(0); r < 0x20; r++ {
		bad = append(bad, string(r)+good, good[:4]+string(r)+good[4:], good+string(r))
	}
	for _, r := range []rune{0x7f, 0x85, 0x9b} {
		bad = append(bad, good+string(r))
	}
	for _, r := range []rune{0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069} {
		bad = append(bad, string(r)+good, good[:4]+string(r)+good[4:], good+string(r))
	}
	bad = append(bad, good+"\xff", "\xc3"+good, strings.Repeat("\x00", 16))
	for _, p := range bad {
		err := CheckPassphrase(p)
		if err == nil {
			t.Errorf("%q acceptée", p)
			continue
		}
		if strings.Contains(err.Error(), good) || !strings.Contains(err.Error(), "passphrase") {
			t.Errorf("raison : %q", err)
		}
	}
	// What shows as nothing: the BOM an editor writes, zero-width and
	// bidi marks, the soft hyphen, tag characters, every other format
	// character (Cf), line separators; named by code point, at the start,
	// inside or at the end, and in a passphrase too short as well.
	invisible := []rune{0xfeff, 0x200b, 0x200c, 0x200d, 0x2060, 0x200e, 0x200f, 0x061c, 0x00ad,
		0xe0000, 0xe0001, 0xe0020, 0xe0041, 0xe007f, 0x2028, 0x2029, 0x180e, 0x2064, 0xfff9, 0x110bd, 0x1d173}
	for r := rune(0); r <= 0x10ffff; r++ {
		if unicode.Is(unicode.Cf, r) {
			invisible = append(invisible, r)
		}
	}
	for _, r := range invisible {
		for _, p := range []string{string(r) + good, good[:4] + string(r) + good[4:], good + string(r), string(r) + "court"} {
			err := CheckPassphrase(p)
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("(%U)", r)) || strings.Contains(err.Error(), good) ||
				strings.Contains(err.Error(), "court") || strings.ContainsRune(err.Error(), r) {
				t.Fatalf("%U dans %q : %v", r, p, err)
			}
		}
	}
	for _, p := range []string{good, "clé à molette é", "mot de passe avec espaces", "🙂🙂🙂🙂🙂🙂🙂🙂"} {
		if err := CheckPassphrase(p); err != nil {
			t.Errorf("%q refusée : %v", p, err)
		}
	}
}

// TestKeptKeyPermissionWarnings: keeping (or making) a key whose file
// others can read, or whose folder others can write, warns with the fix,
// as `pret verifier` fails on it.
func TestKeptKeyPermissionWarnings(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	if runtime.GOOS == "windows" {
		t.Skip("les droits Unix n'ont pas cours sous Windows")
	}
	for _, tc := range []struct {
		name             string
		keyMode, dirMode os.FileMode
		wantKey, wantDir bool
	}{
		{"bons-droits", 0o600, 0o700, false, false},
		{"cle-0644", 0o644, 0o700, true, false},
		{"cle-0640", 0o640, 0o700, true, false},
		{"dossier-0777", 0o600, 0o777, false, true},
		{"dossier-0775", 0o600, 0o775, false, true},
		{"les-deux", 0o604, 0o757, true, true},
		{"dossier-0755", 0o600, 0o755, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := keys.Store{Files: safefile.KeyFiles{}, Dir: filepath.Join(t.TempDir(), "ssh"), Name: "id", Comment: "c"}
			if _, err := store.Create(rand.Reader, []byte("une passphrase longue")); err != nil {
				t.Fatal(err)
			}
			os.Chmod(store.PrivatePath(), tc.keyMode)
			os.Chmod(store.Dir, tc.dirMode)
			res, err := EnsureKey(store, rand.Reader, func() ([]byte, error) { t.Fatal("passphrase demandée"); return nil, nil }, nil)
			if err != nil {
				t.Fatal(err)
			}
			var gotKey, gotDir bool
			for _, w := range res.Warnings {
				if w.Hint == "chmod 600 "+store.PrivatePath() {
					gotKey = true
				}
				if w.Hint == "chmod 700 "+store.Dir {
					gotDir = true
				}
			}
			if gotKey != tc.wantKey || gotDir != tc.wantDir {
				t.Errorf("avertissements %+v", res.Warnings)
			}
		})
	}
}
