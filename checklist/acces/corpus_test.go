package acces

import (
	"crypto/sha256"
	"encoding/base64"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var corpusDir = flag.String("corpus", "", "TestWriteCorpus writes -corpus-n acces.md files here")
var corpusN = flag.Int("corpus-n", 10000, "how many files TestWriteCorpus writes")

// sampleAccess is learner i's one-page acces.md, in one of the layouts
// learners use; about one in ten has a problem.
func sampleAccess(i int) []byte {
	sum := sha256.Sum256([]byte(fmt.Sprint("learner", i)))
	fp := "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
	date := fmt.Sprintf("2026-10-%02d", 1+i%19)
	sentence := "Connexion uniquement vers le nœud de login indiqué par les organisateurs."
	if i%10 == 9 {
		sentence = "Connexion vers le nœud de login romeo.univ-reims.fr."
	}
	switch i % 4 {
	case 0:
		return []byte(fmt.Sprintf("# Accès — séance du jeudi 5 novembre 2026, 9h30–12h\n\nFormation : Utiliser ROMEO2025 et ses GPU pour le HPC et l'IA\n\n"+
			"- Date de la demande du compte d'accès : %s\n- Chemin de la clé publique : `/home/l%d/.ssh/id_ed25519_romeo.pub`\n"+
			"- Empreinte et type : `256 %s seance-novembre (ED25519)`\n\n> %s\n", date, i, fp, sentence))
	case 1:
		return []byte(fmt.Sprintf("Mon compte existait déjà : vérifié ouvert le %d/10/2026.\r\nClé : ~/.ssh/id_ed25519_romeo.pub\r\n"+
			"C'est une clé ED25519, empreinte %s.\r\n\r\n%s\r\n", 1+i%19, fp, sentence))
	case 2:
		return []byte(fmt.Sprintf("| Élément | Valeur |\n|---|---|\n| Demande | %d octobre 2026 |\n| Clé | `C:\\Users\\l%d\\.ssh\\id_ed25519_romeo.pub` |\n"+
			"| Empreinte | %s |\n| Type | ed25519 |\n\n« %s »\n", 1+i%19, i, fp, sentence))
	}
	return []byte(fmt.Sprintf("## Demande du compte\n\nFaite le %s par le formulaire des organisateurs, pour la séance du 5 novembre 2026.\n\n"+
		"## Clé\n\nJ'ai créé $HOME/.ssh/id_ed25519_romeo.pub avec une passphrase. Son empreinte est\n%s (type ed25519).\n\n"+
		"## Règle\n\n%s\n", date, fp, sentence))
}

// WriteCorpus writes n learners' files, one folder each.
func WriteCorpus(dir string, n int) error {
	for i := 0; i < n; i++ {
		d := filepath.Join(dir, fmt.Sprintf("l%05d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(d, "acces.md"), sampleAccess(i), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// TestWriteCorpus makes the measurement corpus on demand:
//
//	go test ./checklist -run TestWriteCorpus -corpus /tmp/corpus
func TestWriteCorpus(t *testing.T) {
	if *corpusDir == "" {
		// Without -corpus, check that the corpus means what it says.
		for i := 0; i < 40; i++ {
			r := Validate(sampleAccess(i), rules)
			if r.Valid() == (i%10 == 9) {
				t.Errorf("sample %d: valid=%v %+v\n%s", i, r.Valid(), r.Problems, sampleAccess(i))
			}
		}
		return
	}
	if err := WriteCorpus(*corpusDir, *corpusN); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkValidateFiles10k(b *testing.B) {
	dir := b.TempDir()
	if err := WriteCorpus(dir, 10000); err != nil {
		b.Fatal(err)
	}
	var paths []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".md") {
			paths = append(paths, p)
		}
		return nil
	})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range paths {
			ValidateFile(Target{Path: p}, rules)
		}
	}
}
