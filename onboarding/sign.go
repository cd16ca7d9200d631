package onboarding

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/keys/signing"
)

// SignTries is how many times the wizard asks the passphrase before it
// gives up (signature.md).
const SignTries = 3

// AccessSigner signs acces.md with the session's key. It is the one path
// behind `pret signer`, `pret acces --signer` and the wizard's offer, so
// the refusals are the same everywhere.
type AccessSigner struct {
	Store  keys.Store
	File   string
	Random io.Reader
	// Guard runs the write so that a signal waits for it to end.
	Guard func(func() error) error
	// The rules of `pret valider` the file must pass before it is signed.
	SessionDay, Today time.Time
}

// read reads acces.md through the bounded reader, as `pret valider`
// reads it: the signed file must stay under its size.
func (a *AccessSigner) read() ([]byte, error) {
	return safefile.Read(a.File, safefile.Access, safefile.FollowLink)
}

// check applies `pret valider` to the whole file (signature block and
// the .pub beside it included): the one fingerprint it states ("" if
// none or several) and its errors, in the validator's French sentences
// with their line and their code, but for the old signature's verdict,
// which the new block replaces.
func (a *AccessSigner) check(data []byte) (fingerprint string, errs []string) {
	rules := acces.Rules{KeyName: a.Store.Name + ".pub", SessionDay: a.SessionDay, Today: a.Today}
	if t := acces.TargetFor(a.File, rules.KeyName); t.Pub != "" {
		if pub, err := keys.ReadFile(a.Store.Files, t.Pub); err == nil {
			rules.Beside = &acces.PubFile{Name: t.Pub, Data: pub}
		}
	}
	res := acces.Validate(data, rules)
	return res.Fingerprint, errorsOf(res.Problems, true, "bad-signature", "signature-key-mismatch")
}

// SignPlan is a signature ready to be made: every refusal has been
// checked, only the passphrase is missing.
type SignPlan struct {
	a       *AccessSigner
	priv    []byte
	pub     ssh.PublicKey
	data    []byte // the file as read
	message []byte // the part to sign
	perm    os.FileMode
}

// Prepare reads the key and acces.md and refuses, before the passphrase
// is asked, everything signature.md refuses: no key or not this session's
// kind of key, a file that fails `pret valider`, or one that does not
// state this key's fingerprint.
func (a *AccessSigner) Prepare() (*SignPlan, error) {
	st, err := a.Store.Inspect()
	if err != nil {
		return nil, keyError(a.Store, err)
	}
	switch {
	case st.Kind != keys.Present:
		return nil, refused("créez-la avec « pret cle », écrivez acces.md avec « pret acces », puis signez",
			"pas de clé en %s : rien ne peut signer acces.md", esc(a.Store.PrivatePath()))
	case st.Private.Public == nil || !keys.IsEd25519(st.Private.Public):
		return nil, refused("la séance demande une clé ed25519 : voyez « pret verifier »",
			"la clé %s n'est pas la clé ed25519 de la séance", esc(a.Store.PrivatePath()))
	case !st.Private.Encrypted:
		// A signature claims that its maker knows the passphrase; with
		// none, it would claim something false.
		return nil, refused(fmt.Sprintf("protégez-la d'abord : ssh-keygen -p -f %s", esc(a.Store.PrivatePath())),
			"la clé %s n'a pas de passphrase : la signature ne prouverait rien", esc(a.Store.PrivatePath()))
	case st.Private.Openable() != nil:
		// Said before the passphrase is typed: Decrypt would refuse it
		// whatever it is (pret verifier warns the same).
		return nil, cannotOpen(a.Store, st.Private.Openable())
	}
	priv, err := keys.ReadFile(a.Store.Files, a.Store.PrivatePath())
	if err != nil {
		return nil, keyError(a.Store, err)
	}
	data, err := a.read()
	if err != nil {
		hint := "vérifiez le chemin et les droits du fichier"
		if errors.Is(err, os.ErrNotExist) {
			hint = "écrivez-le d'abord avec « pret acces »"
		}
		return nil, &Error{Msg: fmt.Sprintf("%s illisible : %s", esc(a.File), safefile.Reason(err)), Hint: hint, Err: err}
	}
	f := signing.SplitSigned(data)
	if !f.Replaceable() {
		return nil, notReplaceable(esc(a.File), f)
	}
	msg := f.Message
	if len(msg) > 0 && msg[len(msg)-1] != '\n' {
		msg = append(bytes.Clone(msg), '\n')
	}
	// The whole file, as `pret valider` reads it: a key pasted after the
	// block is a leak too.
	fp, errs := a.check(data)
	if len(errs) > 0 {
		return nil, refused(fmt.Sprintf("corrigez-le (pret valider %s), puis signez", esc(a.File)),
			"%s ne passe pas « pret valider » : %s", esc(a.File), strings.Join(errs, " ; "))
	}
	if signing.SignedLen(msg) > acces.MaxAccessSize {
		return nil, tooLarge(esc(a.File), acces.MaxAccessSize)
	}
	mine := ssh.FingerprintSHA256(st.Private.Public)
	if fp != mine {
		return nil, refused("réécrivez-le avec « pret acces » pour cette clé, puis signez",
			"%s n'indique pas l'empreinte de la clé %s (%s)", esc(a.File), esc(a.Store.PrivatePath()), mine)
	}
	perm := os.FileMode(0o644)
	if fi, err := os.Stat(a.File); err == nil {
		perm = fi.Mode().Perm()
	}
	return &SignPlan{a: a, priv: priv, pub: st.Private.Public, data: data, message: msg, perm: perm}, nil
}

// cannotOpen is the refusal of a key OpenSSH opens and pret does not (a
// cipher or a KDF round count of keys.Openable): the fix keeps the
// passphrase and rewrites the key in the form pret writes.
func cannotOpen(store keys.Store, err error) error {
	return refused(fmt.Sprintf("ré-chiffrez-la, même passphrase, comme pret l'écrit : ssh-keygen -p -a 100 -Z aes256-ctr -f %s, puis signez", esc(store.PrivatePath())),
		"la clé %s : %v ; OpenSSH l'ouvre, mais pret ne sait pas l'ouvrir pour signer", esc(store.PrivatePath()), err)
}

// notReplaceable is the refusal of a file whose signature part a new
// block cannot simply replace (signing.SignedFile.Replaceable): re-signing
// would drop text or leave it unsigned, so the learner moves it first.
func notReplaceable(file string, f *signing.SignedFile) error {
	switch {
	case errors.Is(f.Err, signing.ErrStray):
		return refused("retirez cette ligne (une signature se met seulement à la fin, par « pret signer »), puis signez",
			"%s : ligne %d : une marque ou un bloc de signature se trouve hors de sa place", file, f.Line)
	case errors.Is(f.Err, signing.ErrMisplacedMarker):
		return refused("retirez cette ligne (ou remontez au-dessus d'elle le texte qui la suit), puis signez",
			"%s : ligne %d : la marque <!-- pret:signature --> est au milieu du fichier, suivie de texte et non d'un bloc de signature ; ce texte resterait hors de la signature", file, f.Line)
	case errors.Is(f.Err, signing.ErrTrailing):
		return refused("remontez ce texte au-dessus de la ligne <!-- pret:signature --> (ou supprimez-le vous-même), puis signez",
			"%s : ligne %d : du texte suit le bloc de signature ; il n'est pas signé, et une nouvelle signature le ferait disparaître", file, f.Line)
	}
	return refused("supprimez le bloc (de la ligne <!-- pret:signature --> à la fin du fichier), puis signez",
		"%s : ligne %d : %v ; pret signer ne remplace qu'un bloc de signature qu'il sait lire", file, f.Line, f.Err)
}

// tooLarge is the refusal of a file that its signature would take over
// the size `pret valider` reads.
func tooLarge(file string, max int) error {
	return refused("raccourcissez-le (un acces.md tient sur une page), puis signez",
		"%s dépasserait %d octets une fois signé, la taille maximale d'un acces.md", file, max)
}

// badPassphrase is the refusal of a passphrase that does not open the
// key; the file is untouched.
func badPassphrase() *Error {
	return &Error{Msg: "passphrase incorrecte ; acces.md n'a pas été modifié",
		Hint: "retrouvez la passphrase de cette clé et relancez « pret signer » ; une passphrase perdue ne se retrouve pas : prévenez les organisateurs avant la séance",
		Err:  keys.ErrBadPassphrase}
}

// Sign decrypts the key in memory with passphrase, signs and rewrites
// acces.md whole. The decrypted key is wiped before the file is written.
// A wrong passphrase, or a file changed since Prepare, leaves it as it
// was.
func (p *SignPlan) Sign(passphrase []byte) error {
	signer, wipe, err := keys.Decrypt(p.priv, passphrase)
	if errors.Is(err, keys.ErrBadPassphrase) {
		return badPassphrase()
	}
	if errors.Is(err, keys.ErrTooManyRounds) || errors.Is(err, keys.ErrCipher) {
		return cannotOpen(p.a.Store, err)
	}
	if err != nil {
		return refused("vérifiez la clé avec « pret verifier »", "%v", err)
	}
	sig, err := signing.Sign(p.a.Random, signer, p.message)
	wipe()
	if err != nil {
		return refused("", "%v", err)
	}
	if !bytes.Equal(sig.PublicKey().Marshal(), p.pub.Marshal()) {
		return refused("vérifiez la clé avec « pret verifier »", "la clé déchiffrée n'est pas celle de %s", esc(p.a.Store.PublicPath()))
	}
	signed := signing.AttachSignature(p.message, sig)
	if len(signed) > acces.MaxAccessSize {
		return tooLarge(esc(p.a.File), acces.MaxAccessSize)
	}
	return guarded(p.a.Guard, func() error {
		// The passphrase takes time to type; the learner may have edited
		// the file meanwhile, and that edit must not be lost nor signed
		// unseen.
		now, err := p.a.read()
		if err != nil || !bytes.Equal(now, p.data) {
			return refused("relisez-le, puis relancez « pret signer »", "%s a changé pendant la saisie : il n'a pas été signé", esc(p.a.File))
		}
		if err := CheckOutputs(p.a.Store, Output{p.a.File, "acces.fichier"}); err != nil {
			return err
		}
		if err := Protected(p.a.Store).WriteReplace(p.a.File, signed, p.perm); err != nil {
			return &Error{Msg: fmt.Sprintf("%s non signé : %v", esc(p.a.File), err),
				Hint: "vérifiez la place et les droits du dossier ; le fichier est intact", Err: err}
		}
		return nil
	})
}

// Fingerprint is the fingerprint of the key that signs.
func (p *SignPlan) Fingerprint() string { return ssh.FingerprintSHA256(p.pub) }

// SignAsking asks the passphrase on the terminal, up to tries times, and
// signs. Each wrong passphrase is said on out; after the last one the
// result is the "passphrase incorrecte" refusal and the file is untouched.
func (p *SignPlan) SignAsking(pr Prompter, out io.Writer, tries int) error {
	const help = "La passphrase de la clé, choisie à sa création ; rien ne s'affiche pendant la saisie."
	for i := 1; i <= tries; i++ {
		pass, err := pr.Password(fmt.Sprintf("Passphrase de la clé %s :", esc(p.a.Store.PrivatePath())), help)
		if err != nil {
			return err
		}
		b := []byte(pass)
		err = p.Sign(b)
		clear(b)
		if err == nil || !errors.Is(err, keys.ErrBadPassphrase) {
			return err
		}
		if i < tries {
			fmt.Fprintf(out, "✘ Passphrase incorrecte (essai %d sur %d).\n", i, tries)
		}
	}
	return badPassphrase()
}

// OfferSignature is the wizard's step after acces.md: when the file is
// unsigned or its signature no longer holds, it offers to sign (default
// yes), asks the passphrase up to three times, and says what happened. A
// refusal is reported and the wizard goes on; three wrong passphrases end
// it with exit 1, the file untouched.
func OfferSignature(pr Prompter, out io.Writer, a *AccessSigner) error {
	data, err := a.read()
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		fmt.Fprintf(out, "✘ %s illisible : %s.\n", esc(a.File), safefile.Reason(err))
		return nil
	}
	if f := signing.SplitSigned(data); f.Claimed {
		// It holds when it verifies and the session's key made it.
		st, err := a.Store.Inspect()
		if f.Verify() == nil && err == nil && st.Public() != nil && ssh.FingerprintSHA256(st.Public()) == ssh.FingerprintSHA256(f.Sig.PublicKey()) {
			fmt.Fprintf(out, "%s est signé par votre clé.\n", esc(a.File))
			return nil
		}
		fmt.Fprintf(out, "La signature de %s ne tient plus (fichier modifié depuis, ou autre clé).\n", esc(a.File))
	}
	yes, err := askYesNo(pr, "Signer acces.md ? Cela prouve aux organisateurs que vous avez la clé et que vous vous souvenez de sa passphrase.", true,
		"La signature se vérifie avec OpenSSH seul ; elle ne contient que la clé publique.")
	if err != nil {
		return err
	}
	if !yes {
		fmt.Fprintf(out, "%s n'est pas signé ; pour le signer plus tard : pret signer\n", esc(a.File))
		return nil
	}
	plan, err := a.Prepare()
	if err != nil {
		var e *Error
		if errors.As(err, &e) && !e.Input {
			fmt.Fprintf(out, "✘ Signature refusée : %s.\n", esc(e.Msg))
			if e.Hint != "" {
				fmt.Fprintf(out, "Conseil : %s.\n", esc(e.Hint))
			}
			return nil
		}
		return err
	}
	if err := plan.SignAsking(pr, out, SignTries); err != nil {
		return err
	}
	fmt.Fprintf(out, "%s signé avec la clé %s.\n", esc(a.File), plan.Fingerprint())
	return nil
}

// esc is a path as it may be shown on a terminal: a file name is text
// from outside, and its control characters must not drive the screen.
func esc(s string) string { return checklist.Escape(s) }
