package leak

import (
	"fmt"
	"strings"
	"testing"
)

// onePage is an acces.md as pret writes it and signs it: what organisers
// validate by the hundred.
const onePage = "# Accès — séance du jeudi 5 novembre 2026, 9h30–12h\n\n" +
	"- Date de la demande du compte d'accès : 2026-10-16\n" +
	"- Chemin de la clé publique : `/home/kim/.ssh/id_ed25519_romeo.pub`\n" +
	"- Empreinte et type : `256 SHA256:e5eV2dbJuZWp9bD1dJ4//42i4oaQUxlDKI+67P1iEBQ seance-novembre (ED25519)`\n\n" +
	"> Connexion uniquement vers le nœud de login indiqué par les organisateurs.\n\n" +
	"<!-- pret:signature -->\n```\n-----BEGIN SSH SIGNATURE-----\n" +
	"U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAgHmWHfdv1QNE5Ad9BZ4w+Tde/Yz\n" +
	"bnnI1cS5VmDGSn5AIAAAAKcHJldC1hY2NlcwAAAAAAAAAGc2hhNTEyAAAAUwAAAAtzc2gt\n" +
	"ZWQyNTUxOQAAAEDpZ3vbX5NhIN0cmN2sVG4vzObZPc1ofm9uNJBuWe6CQdA/ioYoQnM0g/\n" +
	"S4EuvRQV6GNuoakz0OSxAEYm9HQ/EF\n-----END SSH SIGNATURE-----\n```\n"

// hostileShapes are texts of size about n built to make a line-by-line
// detector do more than one look at each byte: every line a start it
// must try (a DER "M", the first piece of the openssh magic, a marker
// cut before its end), one huge line, runs of quote marks, blank lines.
func hostileShapes(n int) []struct{ name, text string } {
	rep := func(s string) string { return strings.Repeat(s, n/len(s)) }
	return []struct{ name, text string }{
		{"short-b64-lines", rep("a\n")},
		{"der-starts", rep("M\n")},
		{"der-prefix-lines", rep("MIIEowIBAAKC\n")},
		{"magic-pieces", rep("b\n3\nB\nl\nb\nn\nN\nz\n")},
		{"magic-ends", rep("voici b3BlbnNz\n")},
		{"cut-begin", rep("-----BEGIN\n")},
		{"cut-end", rep("-----END\n\n\n")},
		{"blank-lines", rep("\n")},
		{"one-line", rep("a ")},
		{"one-line-M-tokens", rep("M ")},
		{"one-line-M-run", rep("M")}, // every 'M' of a word is a start (a key glued to a word)
		{"quote-marks", rep("> - ")},
		{"begin-no-end", "-----BEGIN OPENSSH PRIVATE KEY-----\n" + rep("QUFBQQ\n")},
		{"putty-headers", rep("Comment: x\n")},
		{"prose", rep("Connexion uniquement vers le nœud de login indiqué par les organisateurs.\n")},
		// Hex (issue 30): one run of lines decoded whole, hex of hex, dump lines, invisible characters.
		{"hex-lines", rep("2d2d2d2d2d424547494e\n")},
		{"hex-of-hex", rep("3264326432643264\n")},
		{"xxd-lines", rep("00000000: 2d2d 2d2d 2d42 4547 494e 204f 5045 4e53  -----BEGIN OPENS\n")},
		{"invisible", rep("b3Bl\u200bbnNz\u00ad\n")},
		// A key file encoded whole, wrapped: every line a start, or its end.
		{"armour-starts", rep("LS0tLS1CRUdJ\n")},
		{"armour-ends", rep("xyz LS0tLS1\nCRUdJTiBD\n")},
	}
}

// BenchmarkLines: one page as organisers validate them by the hundred,
// and each hostile shape at 1 MiB and at 2 MiB: the time per byte stays
// the same.
//
//	go test ./keys/leak -run '^$' -bench . -benchmem
func BenchmarkLines(b *testing.B) {
	b.Run("page", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(onePage)))
		for b.Loop() {
			Lines(onePage)
		}
	})
	for _, n := range []int{1 << 20, 2 << 20} {
		for _, s := range hostileShapes(n) {
			b.Run(fmt.Sprintf("%s/%dMiB", s.name, n>>20), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(s.text)))
				for b.Loop() {
					Lines(s.text)
				}
			})
		}
	}
}
