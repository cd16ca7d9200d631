package acces

import (
	"errors"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/keys/signing"
)

// checkSignature applies signature.md: bad-signature, signature-key-
// mismatch, and unsigned when the rules require a signature. The messages
// quote nothing from the file.
func checkSignature(r *Result, sf *signing.SignedFile, rules Rules) {
	if !sf.Claimed {
		if rules.RequireSignature {
			r.add("unsigned", checklist.SevError, 0, "acces.md n'est pas signé : signez-le avec « pret signer » (cela prouve que vous avez la clé et sa passphrase)")
		}
		return
	}
	const again = "signez-le de nouveau avec « pret signer »"
	// Where re-signing would drop or leave unsigned some text, the advice
	// is the change by hand that pret signer needs first: it refuses
	// such a file (signing.SignedFile.Replaceable).
	bad := func(fix, format string, args ...any) {
		r.add("bad-signature", checklist.SevError, sf.Line, format+" : "+fix, args...)
		r.SignatureFix = fix
	}
	switch err := sf.Verify(); {
	case errors.Is(err, signing.ErrStray):
		bad("retirez-la, puis "+again, "marque ou bloc de signature hors de sa place (la signature se met seulement à la fin, après <!-- pret:signature -->)")
		return
	case errors.Is(err, signing.ErrMisplacedMarker):
		bad("retirez cette ligne (ou remontez au-dessus d'elle le texte qui la suit), puis "+again,
			"la marque <!-- pret:signature --> est au milieu du fichier : du texte la suit au lieu d'un bloc de signature, et ce texte ne serait pas signé")
		return
	case errors.Is(err, signing.ErrTrailing):
		bad("remontez ce texte au-dessus de la ligne <!-- pret:signature --> (ou supprimez-le), puis "+again,
			"du texte suit le bloc de signature : il n'est pas signé")
		return
	case errors.Is(err, signing.ErrNoBlock):
		bad("retirez cette ligne, ou "+again, "la marque <!-- pret:signature --> n'est suivie d'aucun bloc de signature")
		return
	case errors.Is(err, signing.ErrNamespace):
		bad(again, "signature faite pour un autre usage que acces.md (espace de noms autre que pret-acces)")
		return
	case errors.Is(err, signing.ErrSigMismatch):
		bad(again, "le fichier a été modifié après sa signature")
		return
	case err != nil:
		bad("supprimez le bloc (de la ligne <!-- pret:signature --> à la fin), puis "+again, "bloc de signature illisible (%s)", detail(err))
		return
	}
	signer := ssh.FingerprintSHA256(sf.Sig.PublicKey())
	if r.Fingerprint != "" && signer != r.Fingerprint {
		r.add("signature-key-mismatch", checklist.SevError, sf.Line, "la signature est celle de la clé %s, pas de la clé indiquée (%s) : signez avec votre clé (« pret signer »)", signer, r.Fingerprint)
		r.SignatureFix = "signez avec votre clé : « pret signer »"
		return
	}
	if rules.Beside != nil {
		if entries, err := keys.ParsePublic(rules.Beside.Data); err == nil && ssh.FingerprintSHA256(entries[0].Key) != signer {
			r.add("signature-key-mismatch", checklist.SevError, sf.Line, "la signature est celle de la clé %s, pas de %s à côté d'acces.md : signez avec votre clé (« pret signer »)", signer, rules.Beside.Name)
			r.SignatureFix = "signez avec votre clé : « pret signer »"
			return
		}
	}
	r.SignedBy = signer
}

// detail is the French reason of a malformed block, without the generic
// prefix; keys' errors hold fixed text only, never bytes of the file.
func detail(err error) string {
	s := err.Error()
	if p := signing.ErrBadArmor.Error() + " : "; len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}
