package submissions

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestArchiveEntryFromPath: an archive entry's result names its archive
// and its entry as before they were read back from its path, whatever
// the names hold ("!/", accents, folders, a zip in a folder named like
// one), and a shared key between entries still lists the others.
func TestArchiveEntryFromPath(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "a!", "x.zip!")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	names := []string{"acces.md", "kim/acces.md", "é!/acces.md", "a/b/c/acces.md", "x!/y!/acces.md", "Dupont Alice_123_assignsubmission_file_acces.md"}
	zp := filepath.Join(dir, "rendus.zip")
	if err := os.WriteFile(zp, zipOf(t, "", names, page(newKey(4).fp, false)), 0o644); err != nil {
		t.Fatal(err)
	}
	results := Validate([]string{zp}, Options{Rules: testRules})
	if len(results) != len(names) {
		t.Fatalf("%d results for %d entries", len(results), len(names))
	}
	seen := map[string]bool{}
	for _, r := range results {
		if r.Archive != zp || r.Path != zp+"!/"+r.Entry || !slices.Contains(names, r.Entry) {
			t.Errorf("path %q: archive %q, entry %q", r.Path, r.Archive, r.Entry)
		}
		seen[r.Entry] = true
		if r.DuplicateCount == 0 && len(r.DuplicateOf) == 0 && codesOfResult(r) == "" {
			continue
		}
		for _, o := range r.DuplicateOf {
			if o == r.Path || !strings.HasPrefix(o, zp+"!/") {
				t.Errorf("%s: duplicate_of %q", r.Path, o)
			}
		}
	}
	if len(seen) != len(names) {
		t.Errorf("entries read: %v", seen)
	}
}
