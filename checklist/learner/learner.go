// Package learner holds the checks of `pret verifier`: the learner's key,
// its access date and acces.md, read only.
package learner

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys"
)

// Learner is what `pret verifier` looks at. It only reads.
type Learner struct {
	Store      keys.Store
	AccessFile string
	// The last date recorded by `pret acces` ("demande" or "verifie").
	AccessStatus, AccessDate string
	SessionDay, Today        time.Time
	Home                     string                       // to read "~/" in acces.md
	LookPath                 func(string) (string, error) // finds, never runs
}

// Check runs every check of cli.md, in order.
func (l Learner) Check() *checklist.Report {
	r := &checklist.Report{Name: "pret verifier"}
	add := func(id string, st checklist.Status, msg, fix string) {
		r.Checks = append(r.Checks, checklist.Check{ID: id, Status: st, Message: msg, Fix: fix})
	}
	// Bounded: a FIFO or a huge file must not stall the checklist. No
	// link is followed: pret writes this file itself.
	data, readErr := safefile.Read(l.AccessFile, safefile.Access, safefile.NoFollow)
	priv := l.Store.PrivatePath()
	state, err := l.Store.Inspect()
	keyOK := false
	switch {
	case err != nil:
		add("key-present", checklist.Fail, fmt.Sprintf("clé illisible : %v", err), "déplacez ce qui occupe "+priv+", puis lancez « pret cle »")
	case state.Kind == keys.Absent && l.AccessDate == "" && errors.Is(readErr, fs.ErrNotExist):
		add("key-present", checklist.Fail, "aucune clé à "+priv+" : rien n'est encore prêt", "lancez pret : l'assistant crée la clé, note la date de la demande du compte et écrit acces.md")
	case state.Kind == keys.Absent:
		add("key-present", checklist.Fail, "aucune clé à "+priv, "créez-la avec « pret cle »")
	case state.Kind == keys.OrphanPub:
		add("key-present", checklist.Fail, l.Store.PublicPath()+" existe sans sa clé privée", "retrouvez la clé privée ; sinon déplacez le .pub, puis lancez « pret cle »")
	default:
		keyOK = true
		add("key-present", checklist.Pass, "clé présente : "+priv, "")
	}
	if !keyOK {
		for _, id := range []string{"key-type", "key-encrypted", "key-permissions", "pubkey-matches"} {
			add(id, checklist.Skip, "pas de clé à examiner", "")
		}
	} else {
		p := state.Private
		if p.Public != nil && keys.IsEd25519(p.Public) {
			add("key-type", checklist.Pass, "type ED25519", "")
		} else {
			typ := p.LegacyType
			if p.Public != nil {
				typ = keys.TypeName(p.Public)
			}
			add("key-type", checklist.Fail, "clé de type "+typ+", pas ed25519", "la séance demande une clé ed25519 : choisissez un autre nom de clé (cle.nom) et lancez « pret cle »")
		}
		switch err := p.Openable(); {
		case !p.Encrypted:
			add("key-encrypted", checklist.Fail, "la clé n'a pas de passphrase", "ajoutez-en une : ssh-keygen -p -f "+priv)
		case err != nil:
			// Sound for OpenSSH, but pret signer cannot open it.
			add("key-encrypted", checklist.Warn, fmt.Sprintf("clé protégée par une passphrase, mais pret signer ne sait pas l'ouvrir : %v", err),
				"pour signer acces.md, ré-chiffrez-la comme pret l'écrit (même passphrase) : ssh-keygen -p -a 100 -Z aes256-ctr -f "+priv)
		default:
			add("key-encrypted", checklist.Pass, "clé protégée par une passphrase ("+p.Cipher+", "+p.KDF+")", "")
		}
		// As the system's OpenSSH (modes, or ACLs on Windows): ssh refuses
		// a key others read; a folder others write lets them swap it.
		switch problems, err := l.Store.Permissions(); {
		case err != nil:
			add("key-permissions", checklist.Fail, "droits illisibles : "+safefile.Reason(err), "")
		case len(problems) > 0:
			add("key-permissions", checklist.Fail, problems[0].Msg, problems[0].Fix)
		default:
			add("key-permissions", checklist.Pass, "clé privée lisible par son propriétaire seul, dossier protégé", "")
		}
		pub := l.Store.PublicPath()
		switch {
		case state.Pub == nil && state.PubErr == nil:
			add("pubkey-matches", checklist.Fail, pub+" manque", "« pret cle » le recrée depuis la clé privée")
		case state.PubErr != nil:
			add("pubkey-matches", checklist.Fail, pub+" est illisible", "déplacez-le ; « pret cle » le recréera depuis la clé privée")
		case !state.PubMatches():
			add("pubkey-matches", checklist.Fail, pub+" ne correspond pas à la clé privée", "déplacez-le ; « pret cle » le recréera depuis la clé privée")
		default:
			add("pubkey-matches", checklist.Pass, "la clé publique correspond à la clé privée", "")
		}
	}
	// A `pret cle` killed while writing leaves no key but a temporary copy.
	switch left, err := l.Store.Leftovers(); {
	case err != nil:
		add("key-leftovers", checklist.Fail, "dossier de la clé illisible : "+safefile.Reason(err), "vérifiez les droits du dossier "+l.Store.Dir)
	case len(left) > 0:
		add("key-leftovers", checklist.Warn, fmt.Sprintf("%d fichier%s laissé%s par un pret interrompu, une copie inachevée de la clé : %s",
			len(left), checklist.Plural(len(left)), checklist.Plural(len(left)), strings.Join(left, ", ")), "« pret cle » les retire, et rien d'autre")
	default:
		add("key-leftovers", checklist.Pass, "aucun fichier temporaire laissé dans le dossier de la clé", "")
	}
	what := "demande du compte"
	if l.AccessStatus == "verifie" {
		what = "vérification du compte"
	}
	const dateFix = "notez-la avec « pret acces --statut demande » (ou verifie si le compte est ouvert)"
	switch d, err := time.Parse("2006-01-02", l.AccessDate); {
	case l.AccessDate == "":
		add("access-date", checklist.Fail, "aucune date de demande ou de vérification du compte notée", dateFix)
	case err != nil:
		add("access-date", checklist.Fail, "date notée illisible : "+l.AccessDate, dateFix)
	case d.After(l.Today):
		add("access-date", checklist.Fail, "date notée dans le futur : "+l.AccessDate, dateFix)
	case !d.Before(l.SessionDay):
		add("access-date", checklist.Warn, what+" le "+l.AccessDate+", le jour de la séance ou après", "le compte risque de ne pas être prêt : prévenez les organisateurs")
	default:
		add("access-date", checklist.Pass, what+" le "+l.AccessDate, "")
	}
	switch {
	case errors.Is(readErr, fs.ErrNotExist):
		add("acces-present", checklist.Fail, "pas de fichier "+l.AccessFile, "écrivez-le avec « pret acces »")
	case readErr != nil:
		add("acces-present", checklist.Fail, l.AccessFile+" illisible : "+safefile.Reason(readErr), "vérifiez les droits du fichier")
	default:
		add("acces-present", checklist.Pass, l.AccessFile+" présent", "")
	}
	var res *acces.Result
	if readErr != nil {
		add("acces-valid", checklist.Skip, "pas d'acces.md à valider", "")
	} else {
		res = acces.Validate(data, acces.Rules{KeyName: l.Store.Name + ".pub", SessionDay: l.SessionDay, Today: l.Today})
		var errs, warns []string
		for _, p := range res.Problems {
			msg := p.Message
			if p.Line > 0 {
				msg = fmt.Sprintf("ligne %d : %s", p.Line, msg)
			}
			if p.Severity == checklist.SevError {
				errs = append(errs, msg)
			} else {
				warns = append(warns, msg)
			}
		}
		switch {
		case len(errs) > 0:
			add("acces-valid", checklist.Fail, "acces.md invalide : "+strings.Join(errs, " ; "), "« pret acces » réécrit le fichier ; « pret valider "+l.AccessFile+" » donne aussi le code de chaque problème")
		case len(warns) > 0:
			add("acces-valid", checklist.Warn, "acces.md valide, avec des avertissements : "+strings.Join(warns, " ; "), "« pret valider "+l.AccessFile+" » les détaille")
		default:
			add("acces-valid", checklist.Pass, "acces.md a les quatre éléments", "")
		}
	}
	switch {
	case res == nil || !keyOK || state.Public() == nil:
		add("acces-matches-key", checklist.Skip, "il faut la clé et acces.md", "")
	case res.Fingerprint == "":
		add("acces-matches-key", checklist.Fail, "acces.md n'indique pas une empreinte unique", "« pret acces » réécrit acces.md avec l'empreinte de la clé")
	case res.Fingerprint != ssh.FingerprintSHA256(state.Public()):
		add("acces-matches-key", checklist.Fail, "l'empreinte d'acces.md, "+res.Fingerprint+", n'est pas celle de la clé, "+ssh.FingerprintSHA256(state.Public()), "« pret acces » réécrit acces.md avec l'empreinte de la clé")
	case res.PubPath == "":
		add("acces-matches-key", checklist.Fail, "acces.md n'indique pas le chemin de la clé publique "+l.Store.PublicPath(), "« pret acces » réécrit acces.md avec le bon chemin")
	case !l.samePath(res.PubPath):
		add("acces-matches-key", checklist.Fail, "le chemin d'acces.md, "+res.PubPath+", n'est pas "+l.Store.PublicPath(), "« pret acces » réécrit acces.md avec le bon chemin")
	default:
		add("acces-matches-key", checklist.Pass, "acces.md indique l'empreinte et le chemin de cette clé", "")
	}
	// A hand-edited acces.md may hold another date than the one declared:
	// a warning, as only the learner knows which is true.
	said := func(date, status string) string {
		return cmp.Or(map[string]string{"demande": "la demande du ", "verifie": "la vérification du "}[status], "le ") + date
	}
	switch {
	case res == nil || res.Date == "":
		add("acces-matches-date", checklist.Skip, "pas de date lisible dans acces.md", "")
	case l.AccessDate == "":
		add("acces-matches-date", checklist.Skip, "aucune date notée à comparer", "")
	case res.Date != l.AccessDate || res.Status != "" && res.Status != l.AccessStatus:
		add("acces-matches-date", checklist.Warn, "acces.md indique "+said(res.Date, res.Status)+", mais la dernière déclaration notée est "+said(l.AccessDate, l.AccessStatus),
			"relancez pret : il propose de ne changer que la ligne de la date ; ou « pret acces --force » réécrit le fichier")
	default:
		add("acces-matches-date", checklist.Pass, "acces.md indique la date notée : "+said(res.Date, l.AccessStatus), "")
	}
	// acces-signed (signature.md): the validator's advice where it has one.
	const signFix = "« pret signer » signe acces.md avec votre clé"
	broken := -1
	if res != nil {
		broken = slices.IndexFunc(res.Problems, func(p checklist.Problem) bool { return p.Code == "bad-signature" || p.Code == "signature-key-mismatch" })
	}
	switch {
	case res == nil:
		add("acces-signed", checklist.Skip, "pas d'acces.md à examiner", "")
	case broken >= 0:
		add("acces-signed", checklist.Fail, res.Problems[broken].Message, cmp.Or(res.SignatureFix, signFix))
	case res.SignedBy == "":
		add("acces-signed", checklist.Warn, "acces.md n'est pas signé : rien ne prouve encore que vous ayez la clé et sa passphrase", signFix)
	case state == nil || state.Public() == nil:
		add("acces-signed", checklist.Warn, "acces.md est signé, mais la clé de la séance est absente", "« pret cle »")
	case res.SignedBy != ssh.FingerprintSHA256(state.Public()):
		add("acces-signed", checklist.Fail, "acces.md est signé par la clé "+res.SignedBy+", pas par la clé de la séance ("+ssh.FingerprintSHA256(state.Public())+")", signFix)
	default:
		add("acces-signed", checklist.Pass, "acces.md est signé par cette clé : elle est à vous et vous connaissez sa passphrase", "")
	}
	days := int(l.SessionDay.Sub(l.Today).Hours() / 24)
	switch {
	case days > 0:
		add("session-date", checklist.Pass, fmt.Sprintf("séance le %s : il reste %d jour%s", l.SessionDay.Format("2006-01-02"), days, checklist.Plural(days)), "")
	case days == 0:
		add("session-date", checklist.Pass, "la séance a lieu aujourd'hui", "")
	default:
		add("session-date", checklist.Warn, fmt.Sprintf("la séance du %s est passée", l.SessionDay.Format("2006-01-02")), "rien à corriger ici ; pour une autre séance, les organisateurs donnent une configuration (seance.date)")
	}
	var found, missing []string
	for _, tool := range []string{"sinfo", "kubectl"} {
		if l.LookPath == nil {
			break
		}
		if p, err := l.LookPath(tool); err == nil {
			found = append(found, tool+" ("+p+")")
		} else {
			missing = append(missing, tool)
		}
	}
	if len(found) > 0 {
		msg := "trouvé sur le PATH : " + strings.Join(found, ", ")
		if len(missing) > 0 {
			msg += " ; absent : " + strings.Join(missing, ", ")
		}
		add("tools", checklist.Pass, msg, "")
	} else {
		add("tools", checklist.Skip, "ni sinfo ni kubectl sur le PATH : ce n'est pas un échec, le travail du portable se valide sans", "")
	}
	return r
}

// samePath compares a path written in acces.md with the key's own.
func (l Learner) samePath(written string) bool {
	p := written
	for _, prefix := range []string{"~/", "$HOME/", "${HOME}/"} {
		if strings.HasPrefix(p, prefix) && l.Home != "" {
			p = filepath.Join(l.Home, p[len(prefix):])
		}
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p) == filepath.Clean(l.Store.PublicPath())
	}
	// A Windows or relative path: only the file name can match.
	return acces.BaseName(written) == filepath.Base(l.Store.PublicPath())
}
