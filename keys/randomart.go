package keys

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"
)

// Randomart draws the "drunken bishop" picture of `ssh-keygen -lv` for the
// SHA256 fingerprint, following OpenSSH's fingerprint_randomart so the two
// pictures are byte-equal.
func Randomart(pub ssh.PublicKey) string { return randomart(pub, TypeName(pub), Bits(pub)) }

// Randomart is the picture of `ssh-keygen -lv` for this line: the key's
// picture under the line's type, "ED25519-CERT" for a certificate.
func (f Fingerprint) Randomart() string { return randomart(f.Key, f.Type, f.Bits) }

func randomart(pub ssh.PublicKey, typ string, bits int) string {
	const (
		base  = 8
		sizeY = base + 1
		sizeX = base*2 + 1
		aug   = " .o+=*BOX@%&#/^SE"
	)
	last := len(aug) - 1
	var field [sizeX][sizeY]int
	x, y := sizeX/2, sizeY/2
	sum := sha256.Sum256(pub.Marshal())
	for _, in := range sum {
		for b := 0; b < 4; b++ {
			if in&1 != 0 {
				x++
			} else {
				x--
			}
			if in&2 != 0 {
				y++
			} else {
				y--
			}
			x = min(max(x, 0), sizeX-1)
			y = min(max(y, 0), sizeY-1)
			if field[x][y] < last-2 {
				field[x][y]++
			}
			in >>= 2
		}
	}
	field[sizeX/2][sizeY/2] = last - 1
	field[x][y] = last

	title := fmt.Sprintf("[%s %d]", typ, bits)
	if len(title) > sizeX {
		title = fmt.Sprintf("[%s]", typ)
	}
	if len(title) >= sizeX {
		title = title[:sizeX-1] // snprintf truncation in OpenSSH
	}
	var sb strings.Builder
	border := func(label string) {
		sb.WriteByte('+')
		pad := (sizeX - len(label)) / 2
		sb.WriteString(strings.Repeat("-", pad))
		sb.WriteString(label)
		sb.WriteString(strings.Repeat("-", sizeX-pad-len(label)))
		sb.WriteString("+\n")
	}
	border(title)
	for y := 0; y < sizeY; y++ {
		sb.WriteByte('|')
		for x := 0; x < sizeX; x++ {
			sb.WriteByte(aug[min(field[x][y], last)])
		}
		sb.WriteString("|\n")
	}
	border("[SHA256]")
	return sb.String()
}
