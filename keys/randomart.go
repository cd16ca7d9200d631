package keys

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"
)

// Randomart draws the "drunken bishop" picture of `ssh-keygen -lv` for the
// key, as OpenSSH's fingerprint_randomart does, byte for byte.
func Randomart(pub ssh.PublicKey) string { return fingerprintOf(pub, "", false).Randomart() }

// Randomart is the picture of `ssh-keygen -lv` for this line: the key's
// picture under the line's type, "ED25519-CERT" for a certificate.
func (f Fingerprint) Randomart() string {
	const (
		base  = 8
		sizeY = base + 1
		sizeX = base*2 + 1
		aug   = " .o+=*BOX@%&#/^SE"
	)
	last := len(aug) - 1
	var field [sizeX][sizeY]int
	x, y := sizeX/2, sizeY/2
	step := func(bit byte) int { return int(bit)*2 - 1 } // 1: +1, 0: -1
	for _, in := range sha256.Sum256(f.Key.Marshal()) {
		for range 4 {
			x = min(max(x+step(in&1), 0), sizeX-1)
			y = min(max(y+step(in>>1&1), 0), sizeY-1)
			if field[x][y] < last-2 {
				field[x][y]++
			}
			in >>= 2
		}
	}
	field[sizeX/2][sizeY/2] = last - 1
	field[x][y] = last

	title := fmt.Sprintf("[%s %d]", f.Type, f.Bits)
	if len(title) > sizeX {
		title = "[" + f.Type + "]"
	}
	if len(title) >= sizeX {
		title = title[:sizeX-1] // snprintf truncation in OpenSSH
	}
	var sb strings.Builder
	border := func(label string) {
		pad := (sizeX - len(label)) / 2
		sb.WriteString("+" + strings.Repeat("-", pad) + label + strings.Repeat("-", sizeX-pad-len(label)) + "+\n")
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
