package acces

import (
	"errors"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/keys"
)

// dropSignature takes the signature block out of the other rules' sight.
// Before the leak report (after=false): a well-formed block is cleared in
// the leak mask — it is a public key and a signature, never private key
// material — while a block that parses yet carries key text in one of its
// fields (its base64 hides it from a line-by-line reading) is marked. A
// block that does not parse is left to the leak detector as it read it.
// After the leak report (after=true): the document ends before the
// marker, so that no rule reads the armour as words.
func (d *document) dropSignature(sf *keys.SignedFile, after bool) {
	if sf.From == 0 || sf.From >= len(d.starts) {
		return
	}
	from, to := sf.From-1, min(sf.To, len(d.leak))
	if after {
		d.starts = d.starts[:sf.From]
		d.leak = d.leak[:min(from, len(d.leak))]
		return
	}
	switch {
	case sf.Inert():
		for i := from; i < to; i++ {
			d.leak[i] = false
		}
	case sf.Sig != nil:
		for i := from; i < to; i++ {
			d.leak[i] = true
		}
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
