package acces

import (
	"cmp"
	"errors"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/keys/signing"
)

// checkSignature applies signature.md; bad-key-type when the file states
// ed25519 and another key signed it. No message quotes the file.
func checkSignature(r *Result, sf *signing.SignedFile, rules Rules, statedEd25519 bool) {
	if !sf.Claimed {
		if rules.RequireSignature {
			r.add(checklist.CodeUnsigned, checklist.SevError, 0, "acces.md n'est pas signé : signez-le avec « pret signer » (cela prouve que vous avez la clé et sa passphrase)")
		}
		return
	}
	const again = "signez-le de nouveau avec « pret signer »"
	// Where re-signing would drop text, pret signer refuses the file
	// (Replaceable): the advice is the change by hand it needs first.
	bad := func(fix, format string, args ...any) {
		r.add(checklist.CodeBadSignature, checklist.SevError, sf.Line, format+" : "+fix, args...)
		r.SignatureFix = fix
	}
	byHand := "supprimez le bloc (de la ligne <!-- pret:signature --> à la fin), puis " + again
	err := sf.Verify()
	for _, c := range []struct {
		err      error
		fix, msg string
	}{
		{signing.ErrCRLF, "remettez des fins de ligne LF (par exemple « dos2unix acces.md »), ou " + byHand,
			"les fins de ligne ont été converties en CRLF (Windows) après la signature : le fichier n'est plus celui qui a été signé"},
		{signing.ErrCRLFBlock, "remettez des fins de ligne LF dans le bloc seulement (de la ligne <!-- pret:signature --> à la fin ; pas dos2unix sur tout le fichier, signé avec des fins CRLF), ou " + byHand,
			"les fins de ligne du bloc de signature ont été converties en CRLF (Windows) : OpenSSH n'y trouve plus la ligne <!-- pret:signature -->"},
		{signing.ErrCR, "remettez des fins de ligne LF (par exemple « mac2unix acces.md »), ou " + byHand,
			"les fins de ligne ont été converties en CR seul (Mac classique) après la signature : le fichier n'est plus celui qui a été signé"},
		{signing.ErrStray, "retirez-la, puis " + again, "marque ou bloc de signature hors de sa place (la signature se met seulement à la fin, après <!-- pret:signature -->)"},
		{signing.ErrMisplacedMarker, "retirez cette ligne (ou remontez au-dessus d'elle le texte qui la suit), puis " + again,
			"la marque <!-- pret:signature --> est suivie de texte au lieu d'un bloc de signature, et ce texte ne serait pas signé"},
		{signing.ErrTrailing, "remontez ce texte au-dessus de la ligne <!-- pret:signature --> (ou supprimez-le), puis " + again, "du texte suit le bloc de signature : il n'est pas signé (seules des lignes vides peuvent le suivre, pas même un commentaire HTML)"},
		{signing.ErrNoBlock, "retirez cette ligne, ou " + again, "la marque <!-- pret:signature --> n'est suivie d'aucun bloc de signature"},
		{signing.ErrNoFence, "mettez une ligne ``` juste avant la ligne BEGIN SSH SIGNATURE et une juste après la ligne END SSH SIGNATURE, ou " + byHand,
			"le bloc de signature n'est pas dans un bloc de code : la page l'afficherait comme du texte"},
		{signing.ErrIndented, "retirez l'indentation du bloc et mettez-le entre deux lignes ```, ou " + byHand,
			"le bloc de signature est indenté : ses lignes BEGIN/END SSH SIGNATURE doivent commencer la ligne pour qu'OpenSSH le lise"},
		{signing.ErrAfterEnd, "fermez le bloc par la même suite de caractères qui l'ouvre (``` ou ~~~) et remontez le texte au-dessus de la ligne <!-- pret:signature -->, ou " + byHand,
			"du texte suit la ligne END SSH SIGNATURE dans le bloc de code : il n'est pas signé"},
		{signing.ErrBeforeBegin, "remontez ce texte au-dessus de la ligne <!-- pret:signature --> (ou supprimez-le), puis " + again,
			"du texte précède la ligne BEGIN SSH SIGNATURE dans le bloc de code : il n'est pas signé"},
		{signing.ErrNamespace, again, "signature faite pour un autre usage que acces.md (espace de noms autre que pret-acces)"},
		{signing.ErrNoUserPresence, "signez de nouveau en touchant la clé de sécurité quand elle clignote (ou avec « pret signer » et la clé de la séance)",
			"signature d'une clé de sécurité faite sans la toucher : pret exige la présence de l'utilisateur"},
		{signing.ErrNonCanonical, again, "signature ed25519 non canonique (valeur S non réduite) : aucun outil de signature n'écrit cela, elle a été modifiée"},
		{signing.ErrSigMismatch, again, "le fichier a été modifié après sa signature"},
	} {
		if errors.Is(err, c.err) {
			bad(c.fix, "%s", c.msg)
			return
		}
	}
	// Refused by OpenSSH for what the signature is, whatever it signs: its
	// own words, never "modifié". The block must go before pret signer.
	if signing.NamesItsCause(err) {
		bad(byHand, "%s", err.Error()) // numbers and fixed words only, nothing of the file
		return
	}
	if err != nil {
		// The generic prefix goes; keys' errors hold no bytes of the file.
		s, ok := strings.CutPrefix(err.Error(), signing.ErrBadArmor.Error()+" : ")
		if !ok || s == "" {
			s = err.Error()
		}
		bad(byHand, "bloc de signature illisible (%s)", s)
		return
	}
	checkSigner(r, sf, rules, statedEd25519)
}

// checkSigner compares the key of a signature that holds with the one the
// file states, or the .pub beside it.
func checkSigner(r *Result, sf *signing.SignedFile, rules Rules, statedEd25519 bool) {
	key := sf.Sig.Key() // a certificate's certified key, as OpenSSH prints it
	signer := ssh.FingerprintSHA256(key)
	if statedEd25519 && key.Type() != ssh.KeyAlgoED25519 {
		r.add(checklist.CodeBadKeyType, checklist.SevError, sf.Line, "acces.md est signé par une clé %s, pas ed25519 comme il l'indique : signez avec la clé ed25519 de la séance (« pret signer »)", keyTypeName(key.Type()))
	}
	other := ""
	if r.Fingerprint != "" && signer != r.Fingerprint {
		other = "la clé indiquée (" + r.Fingerprint + ")"
	} else if rules.Beside != nil {
		if pub := rules.Beside.parsed(); pub.err == nil && !pub.leak && ssh.FingerprintSHA256(pub.key) != signer {
			other = rules.Beside.Name + " à côté d'acces.md"
		}
	}
	if other != "" {
		r.add(checklist.CodeSignatureKeyMismatch, checklist.SevError, sf.Line, "la signature est celle de la clé %s, pas de %s : signez avec votre clé (« pret signer »)", signer, other)
		r.SignatureFix = "signez avec votre clé : « pret signer »"
		return
	}
	r.SignedBy = signer
}

func keyTypeName(t string) string {
	return cmp.Or(typeWord(strings.TrimSuffix(t, "@openssh.com")), "d'un autre type")
}
