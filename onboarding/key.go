package onboarding

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys"
)

// MinPassphraseLen is counted in characters, not bytes: "clé" is three.
const MinPassphraseLen = 8

// CheckPassphrase gives the French reason a passphrase is refused.
func CheckPassphrase(p string) error {
	switch {
	case p == "":
		return errors.New("la passphrase est vide ; le cours demande d'en choisir une")
	case strings.TrimFunc(p, unicode.IsSpace) == "":
		return errors.New("la passphrase ne contient que des espaces")
	case !utf8.ValidString(p):
		return errors.New("la passphrase n'est pas du texte UTF-8 : personne ne pourrait la retaper au clavier")
	}
	if err := Untypable(p); err != nil || utf8.RuneCountInString(p) >= MinPassphraseLen {
		return err
	}
	return fmt.Errorf("la passphrase est trop courte : au moins %d caractères", MinPassphraseLen)
}

// Untypable refuses a passphrase nobody could type back (a BOM, controls, invisible Cf).
func Untypable(p string) error {
	for _, r := range p {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.In(r, unicode.Zl, unicode.Zp) || 0xe0000 <= r && r <= 0xe007f {
			return fmt.Errorf("la passphrase contient %s (%U) : personne ne pourrait la retaper au clavier", runeName(r), r)
		}
	}
	return nil
}

// SpaceTrap names a space in p nobody types back the same way without
// thinking of it: one before or after the rest, or a space other than the
// ordinary one (a no-break space U+00A0 from a word processor, a thin
// space); "" when there is none. Never the passphrase itself.
func SpaceTrap(p string) string {
	first, _ := utf8.DecodeRuneInString(p)
	last, _ := utf8.DecodeLastRuneInString(p)
	switch {
	case unicode.IsSpace(first):
		return fmt.Sprintf("la passphrase commence par %s (%U)", spaceName(first), first)
	case unicode.IsSpace(last):
		return fmt.Sprintf("la passphrase finit par %s (%U)", spaceName(last), last)
	}
	for _, r := range p {
		if r != ' ' && unicode.IsSpace(r) {
			return fmt.Sprintf("la passphrase contient %s (%U), qui ne se tape pas comme un espace ordinaire", spaceName(r), r)
		}
	}
	return ""
}

func spaceName(r rune) string {
	switch r {
	case ' ':
		return "un espace"
	case 0xa0, 0x202f:
		return "un espace insécable"
	case '\t':
		return "une tabulation"
	}
	return "un espace spécial"
}

// UntypableHint says how to fix a passphrase file Untypable refused.
func UntypableHint(p string) string {
	if strings.ContainsRune(p, 0xfeff) {
		return "enregistrez le fichier en UTF-8 sans BOM, ou tapez la passphrase dans le terminal"
	}
	return "enregistrez le fichier sans ce caractère, ou tapez la passphrase dans le terminal"
}

func runeName(r rune) string {
	switch {
	case r == 0xfeff:
		return "une marque d'ordre des octets (BOM), invisible, qu'un éditeur met au début du fichier"
	case r == 0x200b:
		return "un espace de largeur nulle, invisible"
	case r == 0x00ad:
		return "un trait d'union conditionnel, invisible"
	case r == '\t':
		return "une tabulation"
	case r == 0x1b:
		return "la touche Échap (une flèche, une touche de fonction, Alt et une lettre l'envoient aussi)"
	case unicode.IsControl(r):
		return "un caractère de contrôle"
	case unicode.In(r, unicode.Zl, unicode.Zp):
		return "un séparateur de ligne"
	}
	return "un caractère invisible"
}

// AskPassphrase asks until an acceptable passphrase is given the same way twice.
func AskPassphrase(p Prompter, out io.Writer) ([]byte, error) {
	const help = "Elle protège la clé privée sur votre portable. Au moins 8 caractères ; rien ne s'affiche pendant la saisie."
	for {
		first, err := p.Password("Choisissez une passphrase pour la clé :", help)
		if err != nil {
			return nil, err
		}
		if err := CheckPassphrase(first); err != nil {
			fmt.Fprintf(out, "✘ Passphrase refusée : %v.\n", err)
			continue
		}
		if trap := SpaceTrap(first); trap != "" {
			// Kept only when meant: the learner types it again on the session day.
			fmt.Fprintf(out, "Attention : %s ; il faudra la retaper exactement ainsi à chaque usage.\n", trap)
			keep, err := askYesNo(p, "Garder cette passphrase telle quelle ?", false,
				"Non : vous en choisissez une autre. Oui : elle reste telle quelle, avec ce caractère.")
			if err != nil {
				return nil, err
			}
			if !keep {
				continue
			}
		}
		second, err := p.Password("Saisissez-la une seconde fois :", help)
		if err != nil {
			return nil, err
		}
		if first != second {
			fmt.Fprintln(out, "✘ Les deux saisies diffèrent ; recommençons.")
			continue
		}
		return []byte(first), nil
	}
}

// KeyResult is what the key step did.
type KeyResult struct {
	Created  bool
	Rebuilt  bool   // the missing .pub was written from the private key
	Line     string // as `ssh-keygen -lf NOM.pub` prints it
	Warnings []Warning
	Removed  []string // a killed run's temporary files beside the key
}

// Say writes what the key step did to the files, as `pret cle` and the
// wizard say it; created follows the new key's path.
func (r *KeyResult) Say(w io.Writer, store keys.Store, created string) {
	for _, p := range r.Removed {
		fmt.Fprintf(w, "Fichier temporaire laissé par un pret interrompu, retiré : %s\n", esc(p))
	}
	if r.Created {
		fmt.Fprintf(w, "Clé créée : %s%s\nClé publique : %s\n", esc(store.PrivatePath()), created, esc(store.PublicPath()))
	} else {
		fmt.Fprintf(w, "Clé existante conservée : %s\n", esc(store.PrivatePath()))
	}
	if r.Rebuilt {
		fmt.Fprintf(w, "Clé publique recréée depuis la clé privée : %s\n", esc(store.PublicPath()))
	}
}

// Warning is a problem worth saying that does not stop anything.
type Warning struct{ Msg, Hint string }

// EnsureKey keeps the key that exists or creates one; guard wraps each write.
func EnsureKey(store keys.Store, random io.Reader, passphrase func() ([]byte, error), guard func(func() error) error) (*KeyResult, error) {
	// A killed run's copy of a key under another name: nobody else cleans it.
	removed, err := store.RemoveLeftovers()
	if err != nil {
		return nil, keyError(store, err)
	}
	st, err := store.Inspect()
	if err != nil {
		return nil, keyError(store, err)
	}
	res := &KeyResult{Removed: removed}
	switch st.Kind {
	case keys.OrphanPub:
		return nil, refused(
			fmt.Sprintf("si cette clé publique sert encore, retrouvez sa clé privée ; sinon déplacez %s, puis relancez « pret cle »", store.PublicPath()),
			"%s existe sans sa clé privée %s : pret ne crée jamais une nouvelle clé à côté d'une clé publique orpheline", store.PublicPath(), store.PrivatePath())
	case keys.Absent:
		pass, err := passphrase()
		if err != nil {
			return nil, err
		}
		defer clear(pass)
		if err := CheckPassphrase(string(pass)); err != nil {
			return nil, refused("choisissez une autre passphrase, puis relancez « pret cle »", "passphrase refusée : %v", err)
		}
		err = guarded(guard, func() (err error) { st, err = store.Create(random, pass); return })
		res.Created = err == nil
		// ErrAppeared: another pret made the key meanwhile; keep it, like any key.
		if err != nil && !errors.Is(err, keys.ErrAppeared) {
			return nil, keyError(store, err)
		}
	}
	// A key pret must not use is refused, never touched.
	if pub := st.Private.Public; pub == nil || !keys.IsEd25519(pub) {
		kind := st.Private.LegacyType
		if pub != nil {
			kind = keys.TypeName(pub)
		}
		return nil, refused("pret ne la remplace pas : déplacez-la vous-même, ou choisissez un autre nom de clé (cle.nom, PRET_CLE_NOM)",
			"la clé %s est de type %s, pas ed25519", store.PrivatePath(), kind)
	}
	if st.Pub == nil && st.PubErr == nil {
		if err := guarded(guard, func() (err error) { st, err = store.RebuildPub(st); return }); err != nil {
			return nil, keyError(store, err)
		}
		res.Rebuilt = true
	}
	// ssh refuses a private key others read; a folder others write lets them swap it.
	problems, _ := store.Permissions()
	for _, p := range problems {
		res.Warnings = append(res.Warnings, Warning{Msg: p.Msg, Hint: p.Fix})
	}
	if !st.Private.Encrypted {
		res.Warnings = append(res.Warnings, Warning{fmt.Sprintf("la clé %s n'a pas de passphrase", store.PrivatePath()),
			fmt.Sprintf("ajoutez-en une avec : ssh-keygen -p -f %s", store.PrivatePath())})
	}
	res.Line = keys.FingerprintLine(st.Private.Public, "")
	switch {
	case st.PubErr != nil:
		res.Warnings = append(res.Warnings, Warning{fmt.Sprintf("%s est illisible : %v", store.PublicPath(), st.PubErr),
			"déplacez ce fichier ; « pret cle » le recréera depuis la clé privée"})
	case !st.PubMatches():
		res.Warnings = append(res.Warnings, Warning{fmt.Sprintf("%s ne correspond pas à la clé privée %s", store.PublicPath(), store.PrivatePath()),
			fmt.Sprintf("déplacez %s ; « pret cle » le recréera depuis la clé privée", store.PublicPath())})
	default:
		res.Line = keys.FingerprintLine(st.Pub.Key, st.Pub.Comment)
	}
	return res, nil
}

// Protected is what no output may land on: the key folders, key and .pub.
func Protected(store keys.Store) safefile.Protected {
	return safefile.Protect(keyFolders(store), store.PrivatePath(), store.PublicPath())
}

// keyFolders are the key's folder and, when it is another, ~/.ssh.
func keyFolders(store keys.Store) []string {
	if store.SSHDir == "" || filepath.Clean(store.SSHDir) == filepath.Clean(store.Dir) {
		return []string{store.Dir}
	}
	return []string{store.Dir, store.SSHDir}
}

func keyError(store keys.Store, err error) error {
	var fe *safefile.Error
	hint := fmt.Sprintf("vérifiez le dossier %s, puis relancez « pret cle »", store.Dir)
	switch {
	case errors.Is(err, keys.ErrSymlink):
		hint = "pret n'écrit ni ne lit jamais une clé à travers un lien symbolique : supprimez le lien ou choisissez un autre nom de clé"
	case errors.Is(err, keys.ErrExists):
		hint = "relancez « pret cle » : la clé existante sera conservée"
	case errors.As(err, &fe):
		hint = fmt.Sprintf("libérez de la place ou corrigez les droits du dossier %s, puis relancez « pret cle » ; rien n'a été écrit", store.Dir)
	}
	return &Error{Err: err, Msg: err.Error(), Hint: hint}
}
