package moodle

import (
	"fmt"
	"strings"
	"testing"
)

// course is a worksheet of n learners as Moodle writes it.
func course(n int) []byte {
	var b strings.Builder
	b.WriteString("\ufeffIdentifiant,\"Nom complet\",\"Adresse de courriel\",Statut,Note,\"Note maximale\",\"Dernière modification (note)\",\"Feedback par commentaires\"\r\n")
	for i := range n {
		fmt.Fprintf(&b, "\"Participant %d\",\"Nom%d Prénom\",p%d@example.org,\"Remis pour évaluation\",,20,-,\r\n", 100000+i, i, i)
	}
	return []byte(b.String())
}

// BenchmarkCourse reads and writes back a course of 400 learners.
func BenchmarkCourse(b *testing.B) {
	data := course(400)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		fills := make(map[string]Fill, len(s.rows))
		for _, r := range s.rows {
			fills[r.Participant] = Fill{Grade: "1", Feedback: "acces.md valide."}
		}
		s.Write(fills)
	}
}

// BenchmarkLargest reads the most learners a worksheet may hold.
func BenchmarkLargest(b *testing.B) {
	data := course(maxRows)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}
