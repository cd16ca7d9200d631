package acces

import (
	"cmp"
	"encoding/base64"
	"slices"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/keys/leak"
	"github.com/romeo-pret/pret/keys/signing"
)

// keyRule reads the fingerprint, the type ed25519 and the public keys pasted or beside;
// it keeps at most a line number per line and the distinct fingerprints.
type keyRule struct {
	fingerprints []statement // well formed, distinct values in order
	badLines     []int       // malformed SHA256 fingerprints, one line each
	md5Line      int
	pasted       []statement
	ed25519      bool
	otherTypes   []string // distinct, in the order named
	otherLine    int
	firstLine    int // the first line stating a fingerprint of any form
}

// A fingerprint stated, or that of a key pasted ("" when it does not parse).
type statement struct {
	value string // "SHA256:…"
	line  int
	typ   string // a pasted key's, as ssh.PublicKey.Type names it
}

var strictRaw = base64.RawStdEncoding.Strict()

func (k *keyRule) visit(b *block) {
	text := b.text
	// Type words are read between key material: base64 can spell "rsa"
	// between a '+' and a '/'. from is where the text after the last one starts.
	from := 0
	for i := 0; i < len(text); i++ {
		rest, end := text[i:], i
		switch {
		case rest[0]|0x20 == 's' && len(rest) >= 7 && strings.EqualFold(rest[:7], "sha256:"):
			sum := rest[7 : 7+prefixIn(rest[7:], b64Chars)]
			end = i + 7 + len(sum) + prefixIn(rest[7+len(sum):], "=")
			line := b.lineAt(i)
			k.firstLine = cmp.Or(k.firstLine, line)
			if raw, err := strictRaw.DecodeString(sum); err == nil && len(raw) == 32 && end == i+7+len(sum) {
				fp := "SHA256:" + sum
				if !slices.ContainsFunc(k.fingerprints, func(s statement) bool { return s.value == fp }) {
					k.fingerprints = append(k.fingerprints, statement{value: fp, line: line})
				}
			} else if len(k.badLines) == 0 || k.badLines[len(k.badLines)-1] != line {
				k.badLines = append(k.badLines, line)
			}
		case (isHex(rest[0]) || rest[0]|0x20 == 'm') && (i == 0 || !isB64(text[i-1])) && md5At(rest) > 0:
			k.firstLine, k.md5Line = cmp.Or(k.firstLine, b.lineAt(i)), cmp.Or(k.md5Line, b.lineAt(i))
			end = i + md5At(rest)
		case strings.HasPrefix(rest, "AAAA") && (i == 0 || !isB64(text[i-1])):
			if n := prefixIn(rest, b64Chars+"="); n >= 16 {
				if len(k.pasted) < 2*maxPerCode {
					fp, typ := pastedKey(text[:i], rest[:n])
					k.pasted = append(k.pasted, statement{fp, b.lineAt(i), typ})
				}
				end = i + n
			}
		}
		if end > i {
			k.typeWords(text[from:i], from, b)
			from, i = end, end-1
		}
	}
	k.typeWords(text[from:], from, b)
}

// prefixIn is the length of the run of s's first bytes that are in set.
func prefixIn(s, set string) int { return len(s) - len(strings.TrimLeft(s, set)) }

// md5At is the length of the MD5 fingerprint s starts with ("MD5:" and
// 16 hex pairs, or the pairs alone), 0 for none.
func md5At(s string) int {
	n := 0
	if len(s) >= 4 && strings.EqualFold(s[:4], "md5:") {
		n = 4
	}
	end := n + 16*3 - 1 // 16 hex pairs, a ':' between two
	if end > len(s) || end < len(s) && (isHex(s[end]) || s[end] == ':') {
		return 0
	}
	for i := n; i < end; i++ {
		if (i-n)%3 == 2 && s[i] != ':' || (i-n)%3 != 2 && !isHex(s[i]) {
			return 0
		}
	}
	return end
}

// pastedKey reads "ssh-ed25519 AAAA…" (the key type is the word just
// before the blob): its fingerprint and type, "" when it does not parse.
func pastedKey(before, blob string) (string, string) {
	before = strings.TrimRight(before, " \t")
	typ := before[strings.LastIndexAny(before, " \t(:|>")+1:]
	key, _, _, _, err := ssh.ParseAuthorizedKey([]byte(typ + " " + blob))
	if err != nil {
		return "", ""
	}
	key = signing.PlainKey(key) // a certificate: its key's, as ssh-keygen -lf
	return ssh.FingerprintSHA256(key), key.Type()
}

// typeWords notes the key types that text (at off in b) names. Words are cut at all but
// letters, digits, '-' and '_', so id_ed25519_romeo stays one word and states no type.
// Once ed25519 is stated no other type is reported (finish): the words left say nothing.
func (k *keyRule) typeWords(text string, off int, b *block) {
	notWord := func(r rune) bool { return !(r < 0x80 && (isAlnum(byte(r)) || r == '_' || r == '-')) }
	for rest := strings.TrimLeftFunc(text, notWord); rest != "" && !k.ed25519; rest = strings.TrimLeftFunc(rest, notWord) {
		at, n := len(text)-len(rest), strings.IndexFunc(rest, notWord)
		if n < 0 {
			n = len(rest)
		}
		w := rest[:n]
		rest = rest[n:]
		switch t := typeWord(strings.ToLower(w)); t {
		case "":
		case "ed25519":
			k.ed25519 = true
		default:
			k.otherLine = cmp.Or(k.otherLine, b.lineAt(off+at))
			if !slices.Contains(k.otherTypes, t) {
				k.otherTypes = append(k.otherTypes, t)
			}
		}
	}
}

// typeWord names the key type a lower-case word states, "" for none; a certificate's
// ("(ED25519-CERT)" in `ssh-keygen -lf`) states that of the key it certifies.
func typeWord(w string) string {
	return keyTypes[strings.TrimSuffix(strings.TrimSuffix(w, "-v01"), "-cert")]
}

var keyTypes = map[string]string{"ed25519": "ed25519", "ssh-ed25519": "ed25519",
	"ed25519-sk": "ED25519-SK", "sk-ssh-ed25519": "ED25519-SK", "rsa": "RSA", "ssh-rsa": "RSA",
	"ecdsa": "ECDSA", "ecdsa-sha2-nistp256": "ECDSA", "ecdsa-sha2-nistp384": "ECDSA",
	"ecdsa-sha2-nistp521": "ECDSA", "ecdsa-sk": "ECDSA-SK", "sk-ecdsa-sha2-nistp256": "ECDSA-SK",
	"dsa": "DSA", "ssh-dss": "DSA"}

func (k *keyRule) finish(r *Result, rules Rules) {
	for _, line := range k.badLines {
		r.add(checklist.CodeBadFingerprint, checklist.SevError, line, "empreinte mal formée : après « SHA256: », il faut exactement 43 caractères base64, comme « ssh-keygen -lf » les affiche")
	}
	if len(k.fingerprints) == 0 && k.md5Line > 0 {
		r.add(checklist.CodeBadFingerprint, checklist.SevError, k.md5Line, "empreinte MD5 : donnez l'empreinte SHA256 que « ssh-keygen -lf » affiche par défaut")
	}
	switch {
	case len(k.fingerprints) > 1:
		r.add(checklist.CodeMultipleFingerprints, checklist.SevError, k.fingerprints[1].line, "%d empreintes SHA256 différentes : gardez seulement celle de la clé de la séance", len(k.fingerprints))
	case len(k.fingerprints) == 1:
		r.Fingerprint, r.FingerprintLine = k.fingerprints[0].value, k.fingerprints[0].line
	case k.firstLine == 0:
		r.add(checklist.CodeMissingFingerprint, checklist.SevError, 0, "aucune empreinte : ajoutez la ligne de « ssh-keygen -lf ~/.ssh/id_ed25519_romeo.pub » (256 SHA256:… (ED25519))")
	}

	// The type belongs to the third element with the fingerprint: when
	// the whole element is absent, missing-fingerprint says so once.
	switch {
	case k.ed25519:
	case len(k.otherTypes) > 0:
		r.add(checklist.CodeWrongType, checklist.SevError, k.otherLine, "le type indiqué est %s : la séance demande une clé ed25519", k.otherTypes[0])
	case k.firstLine > 0:
		r.add(checklist.CodeMissingType, checklist.SevError, k.firstLine, "le type de la clé n'est pas indiqué : écrivez ed25519 (la ligne de « ssh-keygen -lf » finit par (ED25519))")
	}

	// A pasted key is checked as the .pub beside is: its fingerprint, then its type.
	for _, p := range k.pasted {
		if p.value == "" {
			r.add(checklist.CodeBadPublicKey, checklist.SevWarning, p.line, "la clé publique collée est illisible : recopiez la ligne du fichier .pub en entier, ou retirez-la")
			continue
		}
		if r.Fingerprint != "" && p.value != r.Fingerprint {
			r.add(checklist.CodeFingerprintMismatch, checklist.SevError, p.line, "la clé publique collée a l'empreinte %s, pas celle indiquée (%s)", p.value, r.Fingerprint)
		}
		if p.typ != ssh.KeyAlgoED25519 && k.ed25519 {
			r.add(checklist.CodeBadKeyType, checklist.SevError, p.line, "la clé publique collée est une clé %s, pas ed25519 comme acces.md l'indique : donnez la clé ed25519 de la séance (« pret cle »)", keyTypeName(p.typ))
		}
	}
	if rules.Beside == nil {
		return
	}
	pub := rules.Beside.parsed()
	switch {
	case pub.leak:
		// Handed in with acces.md, a private key is compromised as one pasted in it.
		r.add(checklist.CodePrivateKeyLeak, checklist.SevError, 0, "%s", BesideLeak(rules.Beside.Name))
		return
	case pub.err != nil:
		r.add(checklist.CodeBadPublicKey, checklist.SevError, 0, "le fichier %s, à côté d'acces.md, n'est pas une clé publique lisible", rules.Beside.Name)
		return
	}
	if fp := ssh.FingerprintSHA256(pub.key); r.Fingerprint != "" && fp != r.Fingerprint {
		r.add(checklist.CodeFingerprintMismatch, checklist.SevError, r.FingerprintLine, "le fichier %s a l'empreinte %s, pas celle indiquée (%s)", rules.Beside.Name, fp, r.Fingerprint)
	}
	if pub.key.Type() != ssh.KeyAlgoED25519 && k.ed25519 {
		r.add(checklist.CodeBadKeyType, checklist.SevError, r.FingerprintLine, "le fichier %s est une clé %s, pas ed25519 comme acces.md l'indique : donnez la clé ed25519 de la séance (« pret cle »)", rules.Beside.Name, keyTypeName(pub.key.Type()))
	}
}

const b64Chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

func isB64(c byte) bool { return isAlnum(c) || c == '+' || c == '/' }

func isAlnum(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' }

func isHex(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f' }

// pubRead is what a .pub holds: private key material, or a key, or neither (err).
type pubRead struct {
	leak bool
	key  ssh.PublicKey
	err  error
}

func (p *PubFile) parsed() pubRead {
	p.once.Do(func() {
		entries, err := keys.ParsePublic(p.Data)
		p.read = pubRead{leak: len(leak.File(p.Data)) > 0, err: err} // in any encoding
		if err == nil {
			p.read.key = signing.PlainKey(entries[0].Key)
		}
	})
	return p.read
}

// BesideLeak is the message of a private key handed in as the .pub named
// name beside acces.md: a run that meets the file again knows it is said.
func BesideLeak(name string) string {
	return "le fichier " + name + ", à côté d'acces.md, est une clé privée : retirez-le des rendus, et considérez cette clé comme compromise : créez-en une nouvelle"
}
