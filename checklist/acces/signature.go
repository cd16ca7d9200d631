package acces

import (
	"errors"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/keys"
)

// dropSignature blanks the lines of the signature block for every other
// rule. A well-formed block is blanked before the leak detector runs: it
// is a public key and a signature, never private key material. A block
// that does not parse, or that carries key material in a field, is left to
// the leak detector first (after=true), so nothing can be smuggled in as a
// "signature".
func (d *document) dropSignature(sf *keys.SignedFile, after bool) {
	if sf.From == 0 {
		return
	}
	if !after && sf.Sig != nil && !sf.Inert() {
		// A block that parses yet carries private key text in one of its
		// fields: its base64 hides the key from a line-by-line reading, so
		// its lines are marked here.
		for n := sf.From; n <= sf.To && n <= len(d.lines); n++ {
			d.lines[n-1].leak = true
		}
		return
	}
	if !after && !sf.Inert() {
		return
	}
	for n := sf.From; n <= sf.To && n <= len(d.lines); n++ {
		l := &d.lines[n-1]
		l.raw, l.folded, l.cells, l.words, l.blank, l.starts, l.heading = "", "", nil, nil, true, false, false
	}
}

// checkSignature applies signature.md: bad-signature, signature-key-
// mismatch, and unsigned when the rules require a signature. The messages
// quote nothing from the file.
func checkSignature(r *Result, sf *keys.SignedFile, rules Rules) {
	if !sf.Claimed {
		if rules.RequireSignature {
			r.add("unsigned", checklist.SevError, 0, "acces.md n'est pas signé : signez-le avec « pret signer » (cela prouve que vous avez la clé et sa passphrase)")
		}
		return
	}
	const again = "signez-le de nouveau avec « pret signer »"
	switch err := sf.Verify(); {
	case errors.Is(err, keys.ErrStray):
		r.add("bad-signature", checklist.SevError, sf.Line, "marque ou bloc de signature hors de sa place (la signature se met seulement à la fin, après <!-- pret:signature -->) : retirez-le, puis %s", again)
		return
	case errors.Is(err, keys.ErrNamespace):
		r.add("bad-signature", checklist.SevError, sf.Line, "signature faite pour un autre usage que acces.md (espace de noms autre que pret-acces) : %s", again)
		return
	case errors.Is(err, keys.ErrSigMismatch):
		r.add("bad-signature", checklist.SevError, sf.Line, "le fichier a été modifié après sa signature : %s", again)
		return
	case err != nil:
		r.add("bad-signature", checklist.SevError, sf.Line, "bloc de signature illisible (%s) : %s", detail(err), again)
		return
	}
	signer := ssh.FingerprintSHA256(sf.Sig.PublicKey())
	if r.Fingerprint != "" && signer != r.Fingerprint {
		r.add("signature-key-mismatch", checklist.SevError, sf.Line, "la signature est celle de la clé %s, pas de la clé indiquée (%s) : signez avec votre clé (« pret signer »)", signer, r.Fingerprint)
		return
	}
	if rules.Beside != nil {
		if entries, err := keys.ParsePublic(rules.Beside.Data); err == nil && ssh.FingerprintSHA256(entries[0].Key) != signer {
			r.add("signature-key-mismatch", checklist.SevError, sf.Line, "la signature est celle de la clé %s, pas de %s à côté d'acces.md : signez avec votre clé (« pret signer »)", signer, rules.Beside.Name)
			return
		}
	}
	r.SignedBy = signer
}

// detail is the French reason of a malformed block, without the generic
// prefix; keys' errors hold fixed text only, never bytes of the file.
func detail(err error) string {
	s := err.Error()
	if p := keys.ErrBadArmor.Error() + " : "; len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}
