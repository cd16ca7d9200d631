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
	"github.com/romeo-pret/pret/internal/termtext"
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
	c := &checking{l: l, r: &checklist.Report{Name: "pret verifier"}}
	// Bounded: a FIFO or a huge file must not stall the checklist. No
	// link is followed: pret writes this file itself.
	c.data, c.readErr = safefile.Read(l.AccessFile, safefile.Access, safefile.NoFollow)
	c.state, c.stateErr = l.Store.Inspect()
	c.keyPresent()
	if c.keyOK {
		c.keyType()
		c.keyEncrypted()
		c.keyPermissions()
		c.pubkeyMatches()
	} else {
		for _, id := range []string{"key-type", "key-encrypted", "key-permissions", "pubkey-matches"} {
			c.r.Add(id, checklist.Skip, "pas de clé à examiner", "")
		}
	}
	c.keyLeftovers()
	c.accessDate()
	c.accesPresent()
	c.accesValid()
	c.accesMatchesKey()
	c.accesMatchesDate()
	c.accesSigned()
	c.sessionDate()
	c.tools()
	return c.r
}

// checking is one run of Check: what was read once, and the report each
// check adds its line to.
type checking struct {
	l        Learner
	r        *checklist.Report
	data     []byte // acces.md
	readErr  error
	state    *keys.State
	stateErr error
	keyOK    bool          // a private key is there to examine
	res      *acces.Result // acces.md validated; nil when unread
}

func (c *checking) keyPresent() {
	l, priv := c.l, c.l.Store.PrivatePath()
	switch {
	case c.stateErr != nil:
		c.r.Add("key-present", checklist.Fail, fmt.Sprintf("clé illisible : %v", c.stateErr), "déplacez ce qui occupe "+priv+", puis lancez « pret cle »")
	case c.state.Kind == keys.Absent && l.AccessDate == "" && errors.Is(c.readErr, fs.ErrNotExist):
		c.r.Add("key-present", checklist.Fail, "aucune clé à "+priv+" : rien n'est encore prêt", "lancez pret : l'assistant crée la clé, note la date de la demande du compte et écrit acces.md")
	case c.state.Kind == keys.Absent:
		c.r.Add("key-present", checklist.Fail, "aucune clé à "+priv, "créez-la avec « pret cle »")
	case c.state.Kind == keys.OrphanPub:
		c.r.Add("key-present", checklist.Fail, l.Store.PublicPath()+" existe sans sa clé privée", "retrouvez la clé privée ; sinon déplacez le .pub, puis lancez « pret cle »")
	default:
		c.keyOK = true
		c.r.Add("key-present", checklist.Pass, "clé présente : "+priv, "")
	}
}

func (c *checking) keyType() {
	p := c.state.Private
	if p.Public != nil && keys.IsEd25519(p.Public) {
		c.r.Add("key-type", checklist.Pass, "type ED25519", "")
		return
	}
	typ := p.LegacyType
	if p.Public != nil {
		typ = keys.TypeName(p.Public)
	}
	c.r.Add("key-type", checklist.Fail, "clé de type "+typ+", pas ed25519", "la séance demande une clé ed25519 : choisissez un autre nom de clé (cle.nom) et lancez « pret cle »")
}

func (c *checking) keyEncrypted() {
	p, priv := c.state.Private, c.l.Store.PrivatePath()
	switch err := p.Openable(); {
	case !p.Encrypted:
		c.r.Add("key-encrypted", checklist.Fail, "la clé n'a pas de passphrase", "ajoutez-en une : ssh-keygen -p -f "+priv)
	case err != nil:
		// Sound for OpenSSH, but pret signer cannot open it.
		c.r.Add("key-encrypted", checklist.Warn, fmt.Sprintf("clé protégée par une passphrase, mais pret signer ne sait pas l'ouvrir : %v", err),
			"pour signer acces.md, ré-chiffrez-la comme pret l'écrit (même passphrase) : ssh-keygen -p -a 100 -Z aes256-ctr -f "+priv)
	default:
		c.r.Add("key-encrypted", checklist.Pass, "clé protégée par une passphrase ("+p.Cipher+", "+p.KDF+")", "")
	}
}

// keyPermissions as the system's OpenSSH (modes, or ACLs on Windows): ssh
// refuses a key others read; a folder others write lets them swap it.
func (c *checking) keyPermissions() {
	switch problems, err := c.l.Store.Permissions(); {
	case err != nil:
		c.r.Add("key-permissions", checklist.Fail, "droits illisibles : "+safefile.Reason(err), "")
	case len(problems) > 0:
		c.r.Add("key-permissions", checklist.Fail, problems[0].Msg, problems[0].Fix)
	default:
		c.r.Add("key-permissions", checklist.Pass, "clé privée lisible par son propriétaire seul, dossier protégé", "")
	}
}

func (c *checking) pubkeyMatches() {
	pub := c.l.Store.PublicPath()
	switch {
	case c.state.Pub == nil && c.state.PubErr == nil:
		c.r.Add("pubkey-matches", checklist.Fail, pub+" manque", "« pret cle » le recrée depuis la clé privée")
	case c.state.PubErr != nil:
		c.r.Add("pubkey-matches", checklist.Fail, pub+" est illisible", "déplacez-le ; « pret cle » le recréera depuis la clé privée")
	case !c.state.PubMatches():
		c.r.Add("pubkey-matches", checklist.Fail, pub+" ne correspond pas à la clé privée", "déplacez-le ; « pret cle » le recréera depuis la clé privée")
	default:
		c.r.Add("pubkey-matches", checklist.Pass, "la clé publique correspond à la clé privée", "")
	}
}

// keyLeftovers: a `pret cle` killed while writing leaves no key but a temporary copy.
func (c *checking) keyLeftovers() {
	switch left, err := c.l.Store.Leftovers(); {
	case err != nil:
		c.r.Add("key-leftovers", checklist.Fail, "dossier de la clé illisible : "+safefile.Reason(err), "vérifiez les droits du dossier "+c.l.Store.Dir)
	case len(left) > 0:
		c.r.Add("key-leftovers", checklist.Warn, fmt.Sprintf("%d fichier%s laissé%s par un pret interrompu, une copie inachevée de la clé : %s",
			len(left), termtext.Plural(len(left)), termtext.Plural(len(left)), strings.Join(left, ", ")), "« pret cle » les retire, et rien d'autre")
	default:
		c.r.Add("key-leftovers", checklist.Pass, "aucun fichier temporaire laissé dans le dossier de la clé", "")
	}
}

func (c *checking) accessDate() {
	l := c.l
	what := "demande du compte"
	if l.AccessStatus == "verifie" {
		what = "vérification du compte"
	}
	const dateFix = "notez-la avec « pret acces --statut demande » (ou verifie si le compte est ouvert)"
	switch d, err := time.Parse("2006-01-02", l.AccessDate); {
	case l.AccessDate == "":
		c.r.Add("access-date", checklist.Fail, "aucune date de demande ou de vérification du compte notée", dateFix)
	case err != nil:
		c.r.Add("access-date", checklist.Fail, "date notée illisible : "+l.AccessDate, dateFix)
	case d.After(l.Today):
		c.r.Add("access-date", checklist.Fail, "date notée dans le futur : "+l.AccessDate, dateFix)
	case !d.Before(l.SessionDay):
		c.r.Add("access-date", checklist.Warn, what+" le "+l.AccessDate+", le jour de la séance ou après", "le compte risque de ne pas être prêt : prévenez les organisateurs")
	default:
		c.r.Add("access-date", checklist.Pass, what+" le "+l.AccessDate, "")
	}
}

func (c *checking) accesPresent() {
	file := c.l.AccessFile
	switch {
	case errors.Is(c.readErr, fs.ErrNotExist):
		c.r.Add("acces-present", checklist.Fail, "pas de fichier "+file, "écrivez-le avec « pret acces »")
	case c.readErr != nil:
		c.r.Add("acces-present", checklist.Fail, file+" illisible : "+safefile.Reason(c.readErr), "vérifiez les droits du fichier")
	default:
		c.r.Add("acces-present", checklist.Pass, file+" présent", "")
	}
}

// accesValid validates acces.md once; the checks after it read c.res.
func (c *checking) accesValid() {
	l := c.l
	if c.readErr != nil {
		c.r.Add("acces-valid", checklist.Skip, "pas d'acces.md à valider", "")
		return
	}
	c.res = acces.Validate(c.data, acces.Rules{KeyName: l.Store.Name + ".pub", SessionDay: l.SessionDay, Today: l.Today})
	var errs, warns []string
	for _, p := range c.res.Problems {
		if p.Severity == checklist.SevError {
			errs = append(errs, p.Located())
		} else {
			warns = append(warns, p.Located())
		}
	}
	switch {
	case len(errs) > 0:
		c.r.Add("acces-valid", checklist.Fail, "acces.md invalide : "+strings.Join(errs, " ; "), "« pret acces » réécrit le fichier ; « pret valider "+l.AccessFile+" » donne aussi le code de chaque problème")
	case len(warns) > 0:
		c.r.Add("acces-valid", checklist.Warn, "acces.md valide, avec des avertissements : "+strings.Join(warns, " ; "), "« pret valider "+l.AccessFile+" » les détaille")
	default:
		c.r.Add("acces-valid", checklist.Pass, "acces.md a les quatre éléments", "")
	}
}

func (c *checking) accesMatchesKey() {
	res, pub := c.res, c.l.Store.PublicPath()
	switch {
	case res == nil || !c.keyOK || c.state.Public() == nil:
		c.r.Add("acces-matches-key", checklist.Skip, "il faut la clé et acces.md", "")
	case res.Fingerprint == "":
		c.r.Add("acces-matches-key", checklist.Fail, "acces.md n'indique pas une empreinte unique", "« pret acces » réécrit acces.md avec l'empreinte de la clé")
	case res.Fingerprint != ssh.FingerprintSHA256(c.state.Public()):
		c.r.Add("acces-matches-key", checklist.Fail, "l'empreinte d'acces.md, "+res.Fingerprint+", n'est pas celle de la clé, "+ssh.FingerprintSHA256(c.state.Public()), "« pret acces » réécrit acces.md avec l'empreinte de la clé")
	case res.PubPath == "":
		c.r.Add("acces-matches-key", checklist.Fail, "acces.md n'indique pas le chemin de la clé publique "+pub, "« pret acces » réécrit acces.md avec le bon chemin")
	case !c.l.samePath(res.PubPath):
		c.r.Add("acces-matches-key", checklist.Fail, "le chemin d'acces.md, "+res.PubPath+", n'est pas "+pub, "« pret acces » réécrit acces.md avec le bon chemin")
	default:
		c.r.Add("acces-matches-key", checklist.Pass, "acces.md indique l'empreinte et le chemin de cette clé", "")
	}
}

// accesMatchesDate: a hand-edited acces.md may hold another date than the
// one declared: a warning, as only the learner knows which is true.
func (c *checking) accesMatchesDate() {
	res, l := c.res, c.l
	said := func(date, status string) string {
		return cmp.Or(map[string]string{"demande": "la demande du ", "verifie": "la vérification du "}[status], "le ") + date
	}
	switch {
	case res == nil || res.Date == "":
		c.r.Add("acces-matches-date", checklist.Skip, "pas de date lisible dans acces.md", "")
	case l.AccessDate == "":
		c.r.Add("acces-matches-date", checklist.Skip, "aucune date notée à comparer", "")
	case res.Date != l.AccessDate || res.Status != "" && res.Status != l.AccessStatus:
		c.r.Add("acces-matches-date", checklist.Warn, "acces.md indique "+said(res.Date, res.Status)+", mais la dernière déclaration notée est "+said(l.AccessDate, l.AccessStatus),
			"relancez pret : il propose de ne changer que la ligne de la date ; ou « pret acces --force » réécrit le fichier")
	default:
		c.r.Add("acces-matches-date", checklist.Pass, "acces.md indique la date notée : "+said(res.Date, l.AccessStatus), "")
	}
}

// accesSigned (signature.md): the validator's advice where it has one.
func (c *checking) accesSigned() {
	const signFix = "« pret signer » signe acces.md avec votre clé"
	res, state := c.res, c.state
	broken := -1
	if res != nil {
		broken = slices.IndexFunc(res.Problems, func(p checklist.Problem) bool {
			return p.Code == checklist.CodeBadSignature || p.Code == checklist.CodeSignatureKeyMismatch
		})
	}
	switch {
	case res == nil:
		c.r.Add("acces-signed", checklist.Skip, "pas d'acces.md à examiner", "")
	case broken >= 0:
		c.r.Add("acces-signed", checklist.Fail, res.Problems[broken].Message, cmp.Or(res.SignatureFix, signFix))
	case res.SignedBy == "":
		c.r.Add("acces-signed", checklist.Warn, "acces.md n'est pas signé : rien ne prouve encore que vous ayez la clé et sa passphrase", signFix)
	case state == nil || state.Public() == nil:
		c.r.Add("acces-signed", checklist.Warn, "acces.md est signé, mais la clé de la séance est absente", "« pret cle »")
	case res.SignedBy != ssh.FingerprintSHA256(state.Public()):
		c.r.Add("acces-signed", checklist.Fail, "acces.md est signé par la clé "+res.SignedBy+", pas par la clé de la séance ("+ssh.FingerprintSHA256(state.Public())+")", signFix)
	default:
		c.r.Add("acces-signed", checklist.Pass, "acces.md est signé par cette clé : elle est à vous et vous connaissez sa passphrase", "")
	}
}

func (c *checking) sessionDate() {
	day := c.l.SessionDay
	days := int(day.Sub(c.l.Today).Hours() / 24)
	switch {
	case days > 0:
		c.r.Add("session-date", checklist.Pass, fmt.Sprintf("séance le %s : il reste %d jour%s", day.Format("2006-01-02"), days, termtext.Plural(days)), "")
	case days == 0:
		c.r.Add("session-date", checklist.Pass, "la séance a lieu aujourd'hui", "")
	default:
		c.r.Add("session-date", checklist.Warn, fmt.Sprintf("la séance du %s est passée", day.Format("2006-01-02")), "rien à corriger ici ; pour une autre séance, les organisateurs donnent une configuration (seance.date)")
	}
}

func (c *checking) tools() {
	var found, missing []string
	for _, tool := range []string{"sinfo", "kubectl"} {
		if c.l.LookPath == nil {
			break
		}
		if p, err := c.l.LookPath(tool); err == nil {
			found = append(found, tool+" ("+p+")")
		} else {
			missing = append(missing, tool)
		}
	}
	if len(found) == 0 {
		c.r.Add("tools", checklist.Skip, "ni sinfo ni kubectl sur le PATH : ce n'est pas un échec, le travail du portable se valide sans", "")
		return
	}
	msg := "trouvé sur le PATH : " + strings.Join(found, ", ")
	if len(missing) > 0 {
		msg += " ; absent : " + strings.Join(missing, ", ")
	}
	c.r.Add("tools", checklist.Pass, msg, "")
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
