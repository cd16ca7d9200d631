package keys

import (
	"encoding/base64"
	"encoding/binary"
	"strings"
)

// LooksLikeFragment reports whether s holds a base64 word that may be cut
// from a key body: sixteen characters or more, in both cases, not hex,
// neither an SSH public key nor a SHA256 fingerprint. keys/leak reports
// only what decodes to a key; a piece cut from a body decodes to nothing,
// so whoever quotes a short value it did not expect leaves such words out.
func LooksLikeFragment(s string) bool {
	notB64 := func(r rune) bool {
		return !('A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '+' || r == '/')
	}
	for _, w := range strings.FieldsFunc(s, notB64) {
		if len(w) >= 16 && mixedCase(w) && !allHex(w) && !publicBlob(w) && !strings.Contains(s, "SHA256:"+w) {
			return true
		}
	}
	return false
}

// publicBlob reports a word that opens with the length and name of a key
// type: an SSH public key, whole or cut.
func publicBlob(w string) bool {
	raw, _ := base64.StdEncoding.DecodeString(w[:len(w)/4*4])
	if len(raw) < 8 {
		return false
	}
	n := int(binary.BigEndian.Uint32(raw))
	if n >= 64 || 4+n > len(raw) {
		return false
	}
	name, _, dash := strings.Cut(string(raw[4:4+n]), "-")
	return dash && (name == "ssh" || name == "ecdsa" || name == "sk" || name == "rsa")
}

func allHex(s string) bool { return strings.Trim(s, "0123456789abcdefABCDEF") == "" }

func mixedCase(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return 'A' <= r && r <= 'Z' }) &&
		strings.ContainsFunc(s, func(r rune) bool { return 'a' <= r && r <= 'z' })
}
