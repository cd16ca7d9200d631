package onboarding

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/templates"
)

// Session is the training session acces.md is for.
type Session struct {
	Title      string
	Day        time.Time // civil day, midnight UTC
	Start, End string
}

// Settings are the values the key and access steps need, from cmd.
type Settings struct {
	Session   Session
	Store     keys.Store
	File      string // acces.md
	Template  string // custom template text; empty for the built-in one
	StatePath string
	Today     time.Time // civil day, midnight UTC
	Now       func() time.Time
}

// ParseDay reads AAAA-MM-JJ and refuses a day that does not exist.
func ParseDay(s string) (time.Time, error) {
	d, err := time.Parse("2006-01-02", s)
	if err != nil {
		return time.Time{}, fmt.Errorf("date invalide : %q (attendu AAAA-MM-JJ, un jour qui existe)", s)
	}
	return d, nil
}

// CheckAccessDate applies cli.md: not in the future; on or after the
// session day it is accepted with a warning.
func CheckAccessDate(date, today, session time.Time) (warning string, err error) {
	if date.After(today) {
		return "", fmt.Errorf("la date %s est dans le futur (aujourd'hui : %s)", date.Format("2006-01-02"), today.Format("2006-01-02"))
	}
	if !date.Before(session) {
		return fmt.Sprintf("la date %s tombe le jour de la séance (%s) ou après : le compte risque de ne pas être prêt",
			date.Format("2006-01-02"), session.Format("2006-01-02")), nil
	}
	return "", nil
}

// FileStatus compares the acces.md on disk with the one to write.
type FileStatus int

const (
	FileNew       FileStatus = iota // no acces.md yet
	FileSame                        // already exactly this content
	FileDifferent                   // other content: replaced only on a yes
)

// AccessPlan is acces.md as it will be written, before anything is.
type AccessPlan struct {
	Content []byte
	Status  FileStatus
	Record  Record
	Warning string
	Key     string // the fingerprint line written
}

// PlanAccess checks the key and the date and renders acces.md. It writes
// nothing.
func PlanAccess(s Settings, verified bool, date time.Time) (*AccessPlan, error) {
	st, err := s.Store.Inspect()
	if err != nil {
		return nil, keyError(s.Store, err)
	}
	needKey := func(why string) error {
		return &Error{Msg: why, Hint: "créez ou réparez la clé avec « pret cle », puis relancez"}
	}
	switch {
	case st.Kind != keys.Present:
		return nil, needKey(fmt.Sprintf("pas de clé en %s : acces.md a besoin de son empreinte", s.Store.PrivatePath()))
	case st.Private.Public == nil || !keys.IsEd25519(st.Private.Public):
		return nil, needKey(fmt.Sprintf("la clé %s n'est pas ed25519", s.Store.PrivatePath()))
	case !st.PubMatches():
		return nil, needKey(fmt.Sprintf("%s manque ou ne correspond pas à la clé privée", s.Store.PublicPath()))
	}
	warning, err := CheckAccessDate(date, s.Today, s.Session.Day)
	if err != nil {
		return nil, &Error{Msg: err.Error(), Hint: "donnez le jour de la demande ou de la vérification, aujourd'hui au plus tard"}
	}
	line := keys.FingerprintLine(st.Pub.Key, st.Pub.Comment)
	content, err := templates.Render(s.Template, templates.Access{
		SessionTitle: s.Session.Title,
		SessionDay:   s.Session.Day,
		Start:        s.Session.Start,
		End:          s.Session.End,
		Verified:     verified,
		Date:         date,
		PublicKey:    s.Store.PublicPath(),
		Fingerprint:  line,
	})
	if err != nil {
		return nil, &Error{Msg: err.Error(), Hint: "corrigez le modèle donné par acces.modele, ou videz ce réglage pour le modèle intégré", Input: true}
	}
	status := Record{Status: StatusRequested, Date: date.Format("2006-01-02")}
	if verified {
		status.Status = StatusVerified
	}
	p := &AccessPlan{Content: content, Record: status, Warning: warning, Key: line}
	old, err := safefile.Read(s.File, safefile.Access, safefile.NoFollow)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		p.Status = FileNew
	case errors.Is(err, safefile.ErrTooLarge), errors.Is(err, safefile.ErrSymlink):
		// Not pret's acces.md: replaced (the link itself, never its
		// target) only after a yes or --force, like any other content.
		p.Status = FileDifferent
	case err != nil:
		return nil, &Error{Msg: fmt.Sprintf("%s est illisible : %v", s.File, err), Hint: "vérifiez les droits du fichier"}
	case bytes.Equal(old, content) || signedCopy(old, content):
		p.Status = FileSame
	default:
		p.Status = FileDifferent
	}
	return p, nil
}

// Apply records the date, then writes acces.md whole (unless it is
// already identical). The caller has decided about replacing.
func (p *AccessPlan) Apply(s Settings) error {
	state, err := LoadState(s.StatePath)
	if err != nil {
		return err
	}
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	if state.appendRecord(p.Record, now()) {
		if err := saveState(s.StatePath, state); err != nil {
			return &Error{Msg: fmt.Sprintf("état non enregistré (%s) : %v", s.StatePath, err), Hint: "vérifiez la place et les droits de ce dossier"}
		}
	}
	if p.Status == FileSame {
		return nil
	}
	if err := keys.WriteReplace(s.File, p.Content, 0o644); err != nil {
		return &Error{Msg: fmt.Sprintf("%s non écrit : %v", s.File, err), Hint: "vérifiez la place et les droits du dossier ; l'ancien fichier, s'il existait, est intact"}
	}
	return nil
}

// signedCopy reports whether old is content with a signature block: the
// same acces.md, signed since, which rewriting would only unsign.
func signedCopy(old, content []byte) bool {
	f := keys.SplitSigned(old)
	return f.Claimed && f.Err == nil && bytes.Equal(f.Message, content)
}
