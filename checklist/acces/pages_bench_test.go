package acces

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/romeo-pret/pret/templates"
)

// benchPages is a course's worth of acces.md files as organisers get
// them: pret's own template (requested or checked), the hand-written
// layouts of acces-md.md (prose, lists, a table, a quote, CRLF), the
// scale test's page, and one in seven broken. The same seed gives the
// same pages, so runs compare.
func benchPages(tb testing.TB, n int, fromDir bool) [][]byte {
	rng := rand.New(rand.NewPCG(7, 7))
	fp := func() string {
		sum := sha256.Sum256([]byte{byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256))})
		return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
	}
	day := func() time.Time { return time.Date(2026, 10, 1+rng.IntN(30), 0, 0, 0, 0, time.UTC) }
	sentence := templates.Sentence
	hand := []func() string{
		func() string {
			return "Mon compte existait déjà : vérifié ouvert le " + day().Format("02/01/2006") + ".\nClé : ~/.ssh/id_ed25519_romeo.pub\nC'est une clé ED25519, empreinte " + fp() + ".\n\n" + strings.ToLower(sentence[:1]) + sentence[1:len(sentence)-1] + "\n"
		},
		func() string {
			return "# Accès\r\n\r\n| Élément | Valeur |\r\n|---|---|\r\n| Date de la demande | " + day().Format("2006-01-02") + " |\r\n| Clé | `C:\\Users\\kim\\.ssh\\id_ed25519_romeo.pub` |\r\n| Empreinte | `256 " + fp() + " kim@portable (ED25519)` |\r\n\r\n> « " + sentence + " »\r\n"
		},
		func() string {
			return "Demande faite le mardi 20 octobre 2026.\n\n1. Clé publique : `$HOME/.ssh/id_ed25519_romeo.pub`\n2. Type ed25519, empreinte " + fp() + "\n\n**" + sentence + "**\n"
		},
		func() string {
			return "- Date de la demande : " + day().Format("2006-01-02") + "\n- Clé : ~/.ssh/id_ed25519_romeo.pub\n- 256 " + fp() + " seance-novembre (ED25519)\n\n" + sentence + "\n"
		},
	}
	var pages [][]byte
	if dir := os.Getenv("PRET_BENCH_DIR"); fromDir && dir != "" {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && len(pages) < n {
				if b, err := os.ReadFile(p); err == nil {
					pages = append(pages, b)
				}
			}
			return nil
		})
		if len(pages) > 0 {
			return pages
		}
	}
	for i := range n {
		var page string
		if i%3 == 0 {
			b, err := templates.Render("", templates.Access{
				SessionTitle: "Utiliser ROMEO2025 et ses GPU pour le HPC et l'IA",
				SessionDay:   time.Date(2026, 11, 5, 0, 0, 0, 0, time.UTC), Start: "09:30", End: "12:00",
				Verified: rng.IntN(2) == 0, Date: day(),
				PublicKey:   fmt.Sprintf("/home/etu%04d/.ssh/id_ed25519_romeo.pub", i),
				Fingerprint: "256 " + fp() + fmt.Sprintf(" etu%04d@portable (ED25519)", i),
			})
			if err != nil {
				tb.Fatal(err)
			}
			page = string(b)
		} else {
			page = hand[rng.IntN(len(hand))]()
		}
		if i%7 == 0 {
			page = page[:len(page)-40] // the sentence cut short
		}
		pages = append(pages, []byte(page))
	}
	return pages
}

// courseRules are the rules benchPages' course is checked against.
var courseRules = Rules{KeyName: "id_ed25519_romeo.pub", SessionDay: time.Date(2026, 11, 5, 0, 0, 0, 0, time.UTC), Today: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)}

// BenchmarkCourse400 validates a course, 400 submissions of benchPages'
// mix, per op: issue 33 asks for at most 50 ms of CPU.
func BenchmarkCourse400(b *testing.B) {
	pages := benchPages(b, 400, false)
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			Validate(p, courseRules)
		}
	}
}

// BenchmarkValidatePages is the validator's cost per page of a course:
// the figure the scale goal of organisateurs.md rests on (pret valider
// has a few microseconds of CPU per file beside its reads).
func BenchmarkValidatePages(b *testing.B) {
	pages := benchPages(b, 1000, true)
	var size int64
	for _, p := range pages {
		size += int64(len(p))
	}
	b.SetBytes(size / int64(len(pages)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		Validate(pages[i%len(pages)], courseRules)
	}
}

// TestBenchPagesAreCourse keeps the benchmark honest: its pages get the
// verdicts a course's would, most valid, the cut ones not.
func TestBenchPagesAreCourse(t *testing.T) {
	for i, p := range benchPages(t, 300, false) {
		r := Validate(p, courseRules)
		if want := i%7 != 0; r.Valid() != want {
			t.Errorf("page %d: valid %v, want %v: %v\n%s", i, r.Valid(), want, r.Problems, p)
		}
	}
}
