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
	"github.com/romeo-pret/pret/internal/mdbounds"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/keys/signing"
)

// SignTries is how many times the passphrase is asked (signature.md).
const SignTries = 3

// AccessSigner signs acces.md with the session's key, for every command that signs.
type AccessSigner struct {
	Store  keys.Store
	File   string
	Random io.Reader
	Guard  func(func() error) error // runs the write so that a signal waits for it
	// For the rules of `pret valider` the file must pass first.
	SessionDay, Today time.Time
}

// read reads acces.md as `pret valider` does, under its size.
func (a *AccessSigner) read() ([]byte, error) {
	return safefile.Read(a.File, safefile.Access, safefile.FollowLink)
}

// SignPlan is a signature ready to be made but for the passphrase.
type SignPlan struct {
	a    *AccessSigner
	priv []byte
	pub  ssh.PublicKey
	data []byte // the file as read
	perm os.FileMode
}

// Prepare refuses, before the passphrase is asked, everything signature.md refuses.
func (a *AccessSigner) Prepare() (*SignPlan, error) {
	st, err := a.Store.Inspect()
	if err != nil {
		return nil, keyError(a.Store, err)
	}
	switch {
	case st.Kind != keys.Present:
		return nil, refused("créez-la avec « pret cle », écrivez acces.md avec « pret acces », puis signez",
			"pas de clé à %s : rien ne peut signer acces.md", esc(a.Store.PrivatePath()))
	case st.Private.Public == nil || !keys.IsEd25519(st.Private.Public):
		return nil, refused("la séance demande une clé ed25519 : voyez « pret verifier »",
			"la clé %s n'est pas la clé ed25519 de la séance", esc(a.Store.PrivatePath()))
	case !st.Private.Encrypted:
		// A signature claims that its maker knows the passphrase.
		return nil, refused(fmt.Sprintf("protégez-la d'abord : ssh-keygen -p -f %s", esc(a.Store.PrivatePath())),
			"la clé %s n'a pas de passphrase : la signature ne prouverait rien", esc(a.Store.PrivatePath()))
	case st.Private.Openable() != nil:
		// Decrypt would refuse any passphrase.
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
	if mdbounds.CROnly(data) {
		// Read as lines alone; the block's LF would make them one (outside
		// tester). A lone CR in a file with LF is a space: signed as it is.
		return nil, refused(fmt.Sprintf("convertissez ses fins de ligne en LF (mac2unix %s, ou tr '\\r' '\\n'), puis signez", esc(a.File)),
			"%s a des fins de ligne CR seules (Mac classique) : le bloc de signature, en LF, en ferait une seule ligne", esc(a.File))
	}
	f := signing.SplitSigned(data)
	if !f.Replaceable() {
		return nil, notReplaceable(esc(a.File), f)
	}
	// The whole file (a key after the block is a leak too), as `pret valider` reads it;
	// a valid one is under 16 KiB, the signature block not counted: signed, it still is.
	rules := acces.Rules{KeyName: a.Store.Name + ".pub", SessionDay: a.SessionDay, Today: a.Today}
	if t := acces.TargetFor(a.File, rules.KeyName); t.Pub != "" {
		if pub, err := keys.ReadFile(a.Store.Files, t.Pub); err == nil {
			rules.Beside = &acces.PubFile{Name: t.Pub, Data: pub}
		}
	}
	res := acces.Validate(data, rules)
	if errs := errorsOf(res.Problems, true, checklist.CodeBadSignature, checklist.CodeSignatureKeyMismatch); len(errs) > 0 {
		return nil, refused(fmt.Sprintf("corrigez-le (pret valider %s), puis signez", esc(a.File)),
			"%s ne passe pas « pret valider » : %s", esc(a.File), strings.Join(errs, " ; "))
	}
	if err := signing.Signable(f.Message); err != nil {
		return nil, refused("fermez ce bloc (par ```, ~~~, </script>, </style>, </textarea>, </pre>, </div>, </template>, </details>, --> ou une ligne vide) avant la fin du texte, puis signez",
			"%s : %v", esc(a.File), err)
	}
	mine := ssh.FingerprintSHA256(st.Private.Public)
	if res.Fingerprint != mine {
		return nil, refused("réécrivez-le avec « pret acces » pour cette clé, puis signez",
			"%s n'indique pas l'empreinte de la clé %s (%s)", esc(a.File), esc(a.Store.PrivatePath()), mine)
	}
	perm := os.FileMode(0o644)
	if fi, err := os.Stat(a.File); err == nil {
		perm = fi.Mode().Perm()
	}
	return &SignPlan{a: a, priv: priv, pub: st.Private.Public, data: data, perm: perm}, nil
}

// cannotOpen refuses a key OpenSSH opens and pret does not (keys.Openable).
func cannotOpen(store keys.Store, err error) error {
	return refused(fmt.Sprintf("ré-chiffrez-la, même passphrase, comme pret l'écrit : ssh-keygen -p -a 100 -Z aes256-ctr -f %s, puis signez", esc(store.PrivatePath())),
		"la clé %s : %v ; OpenSSH l'ouvre, mais pret ne sait pas l'ouvrir pour signer", esc(store.PrivatePath()), err)
}

// notReplaceable refuses a file where re-signing would drop text or leave it unsigned.
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
			"%s : ligne %d : du texte suit le bloc de signature (seules des lignes vides peuvent le suivre, pas même un commentaire HTML) ; il n'est pas signé, et une nouvelle signature le ferait disparaître", file, f.Line)
	}
	return refused("supprimez le bloc (de la ligne <!-- pret:signature --> à la fin du fichier), puis signez",
		"%s : ligne %d : %v ; pret signer ne remplace qu'un bloc de signature qu'il sait lire", file, f.Line, f.Err)
}

// Sign decrypts the key in memory, signs, wipes the key and rewrites acces.md whole.
func (p *SignPlan) Sign(passphrase []byte) error {
	signer, wipe, err := keys.Decrypt(p.priv, passphrase)
	if errors.Is(err, keys.ErrBadPassphrase) {
		return &Error{Msg: fmt.Sprintf("passphrase incorrecte ; %s n'a pas été modifié", esc(p.a.File)),
			Hint: "retrouvez la passphrase de cette clé et relancez « pret signer » ; une passphrase perdue ne se retrouve pas : prévenez les organisateurs avant la séance",
			Err:  keys.ErrBadPassphrase}
	}
	if errors.Is(err, keys.ErrTooManyRounds) || errors.Is(err, keys.ErrCipher) {
		return cannotOpen(p.a.Store, err)
	}
	if err != nil {
		return refused("vérifiez la clé avec « pret verifier »", "%v", err)
	}
	if !bytes.Equal(signer.PublicKey().Marshal(), p.pub.Marshal()) {
		wipe()
		return refused("vérifiez la clé avec « pret verifier »", "la clé déchiffrée n'est pas celle de %s", esc(p.a.Store.PublicPath()))
	}
	signed, err := signing.SignFile(p.a.Random, signer, p.data)
	wipe()
	if err != nil {
		return refused("", "%v", err)
	}
	return guarded(p.a.Guard, func() error {
		// An edit made during the question must be neither lost nor signed unseen.
		now, err := p.a.read()
		if err != nil || !bytes.Equal(now, p.data) {
			return refused("relisez-le, puis relancez « pret signer »", "%s a changé pendant la saisie : il n'a pas été signé", esc(p.a.File))
		}
		if err := Protected(p.a.Store).WriteReplace(p.a.File, signed, p.perm); err != nil {
			return &Error{Msg: fmt.Sprintf("%s non signé : %v", esc(p.a.File), err),
				Hint: "vérifiez la place et les droits du dossier ; le fichier est intact", Err: err}
		}
		return nil
	})
}

// Fingerprint is the signing key's.
func (p *SignPlan) Fingerprint() string { return ssh.FingerprintSHA256(p.pub) }

// SignAsking asks the passphrase up to tries (>= 1) times and signs.
func (p *SignPlan) SignAsking(pr Prompter, out io.Writer, tries int) error {
	const help = "La passphrase de la clé, choisie à sa création ; rien ne s'affiche pendant la saisie."
	for i := 1; ; i++ {
		pass, err := pr.Password(fmt.Sprintf("Passphrase de la clé %s :", esc(p.a.Store.PrivatePath())), help)
		if err != nil {
			return err
		}
		b := []byte(pass)
		err = p.Sign(b)
		clear(b)
		if err == nil || !errors.Is(err, keys.ErrBadPassphrase) || i >= tries {
			return err
		}
		fmt.Fprintf(out, "✘ Passphrase incorrecte (essai %d sur %d).\n", i, tries)
	}
}

// OfferSignature offers to sign acces.md unless the key's signature holds.
func OfferSignature(pr Prompter, out io.Writer, a *AccessSigner) error {
	data, err := a.read()
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(out, "✘ %s illisible : %s.\n", esc(a.File), safefile.Reason(err))
		}
		return nil
	}
	if f := signing.SplitSigned(data); f.Claimed {
		if signatureHolds(f, a.Store) {
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

// signatureHolds: f's signature verifies over its bytes and the session's key made it.
func signatureHolds(f *signing.SignedFile, store keys.Store) bool {
	if !f.Claimed || f.Err != nil || f.Sig == nil || f.Verify() != nil {
		return false
	}
	st, err := store.Inspect()
	return err == nil && st.Public() != nil && ssh.FingerprintSHA256(st.Public()) == ssh.FingerprintSHA256(f.Sig.PublicKey())
}

// esc is text from outside (a path, a comment) as a terminal may show it.
func esc(s string) string { return termtext.Escape(s) }
