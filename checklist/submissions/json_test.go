package submissions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
)

// TestJSONContract generates runs with files that say their statut or
// not, keys shared by 1 to 25 files and a varied mix of codes, and checks
// the JSON: statut is always there (empty when the file does not say),
// duplicate_count is the number of other paths and duplicate_of lists
// min(that, cap) of them, and summary.codes lists its keys most frequent
// first, then by name.
func TestJSONContract(t *testing.T) {
	for _, shared := range []int{1, 2, 11, 25} {
		dir := t.TempDir()
		k := newKey(9)
		for i := range shared {
			body := page(k.fp, i%3 == 0)
			if i%2 == 0 {
				body = strings.Replace(body, "Date de la demande", "Statut : demande\n- Date de la demande", 1)
			}
			writeFile(t, filepath.Join(dir, fmt.Sprintf("e%02d", i), "acces.md"), body)
		}
		for i := range 4 {
			writeFile(t, filepath.Join(dir, fmt.Sprintf("x%02d", i), "acces.md"), page(newKey(byte(40+i)).fp, i < 3))
		}
		var out bytes.Buffer
		if err := checklist.WriteFilesReport(&out, "json", checklist.FilesReport{Results: Read([]string{dir}, Options{Rules: testRules})}); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Files []map[string]json.RawMessage `json:"files"`
			Summ  struct {
				Codes json.RawMessage `json:"codes"`
			} `json:"summary"`
		}
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		for _, f := range doc.Files {
			if _, ok := f["statut"]; !ok {
				t.Errorf("no statut key: %s", f["path"])
			}
			var dupOf []string
			var count int
			json.Unmarshal(f["duplicate_of"], &dupOf)
			json.Unmarshal(f["duplicate_count"], &count)
			want := 0
			if shared > 1 && strings.Contains(string(f["path"]), "/e") {
				want = shared - 1
			}
			if count != want || len(dupOf) != min(want, maxDuplicateOf) {
				t.Errorf("%s: duplicate_count %d, %d in duplicate_of; want %d", f["path"], count, len(dupOf), want)
			}
		}
		// The keys in the order written, and their counts.
		dec := json.NewDecoder(bytes.NewReader(doc.Summ.Codes))
		dec.Token()
		prevN, prevK := int(^uint(0)>>1), ""
		for dec.More() {
			kt, _ := dec.Token()
			var n int
			dec.Decode(&n)
			key := kt.(string)
			if n > prevN || n == prevN && key < prevK {
				t.Errorf("summary.codes not most frequent first: %s", doc.Summ.Codes)
			}
			prevN, prevK = n, key
		}
	}
}

func writeFile(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
