package onboarding

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/mdbounds"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/keys/leak"
	"github.com/romeo-pret/pret/keys/signing"
	"github.com/romeo-pret/pret/templates"
)

// Session is the training session acces.md is for.
type Session struct {
	Title      string
	Day        time.Time // civil day, midnight UTC
	Start, End string
}

// Settings are the values the key and access steps need.
type Settings struct {
	Session   Session
	Store     keys.Store
	File      string // acces.md
	Template  string // custom template text; empty for the built-in one
	StatePath string
	Today     time.Time // civil day, midnight UTC
	Home      string    // the learner's home folder, to write paths as ~/…
	// LockWait bounds the wait for another pret, which holds the state's
	// lock for one read and one write; zero waits 10 s.
	LockWait time.Duration
}

// CheckAccessDate applies cli.md: not in the future; on or after the session, a warning.
func CheckAccessDate(date, today, session time.Time) (warning string, err error) {
	if date.After(today) {
		return "", fmt.Errorf("le %s est dans le futur (aujourd'hui : %s) : notez le jour où la demande ou la vérification a été faite", dates.Long(date), dates.Long(today))
	}
	if !date.Before(session) {
		return fmt.Sprintf("la date %s tombe le jour de la séance (%s) ou après : le compte risque de ne pas être prêt",
			date.Format("2006-01-02"), session.Format("2006-01-02")), nil
	}
	return "", nil
}

// ReadAccessDate reads a typed date for status as the wizard and --date take it:
// understood, not in the future, not before the recorded request. Its error is a
// *dates.Error quoting input.
func ReadAccessDate(input string, st *State, status string, today, session time.Time) (time.Time, error) {
	d, err := dates.Parse(input, dates.Context{Today: today, Session: session})
	if err != nil {
		return d, err
	}
	if _, err = CheckAccessDate(d, today, session); err == nil {
		err = beforeRequest(st, Declaration{status, d})
	}
	if err != nil {
		return d, &dates.Error{Input: strings.Join(strings.Fields(input), " "), Reason: err.Error(), Read: true}
	}
	return d, nil
}

// FileStatus compares the acces.md on disk with the one to write.
type FileStatus int

const (
	FileNew FileStatus = iota
	FileSame
	FileDifferent
)

// Declaration is what the learner says about the account at one run.
type Declaration struct {
	Status string    // StatusRequested or StatusVerified
	Date   time.Time // civil day
}

func (d Declaration) Verified() bool { return d.Status == StatusVerified }

// AccessPlan is acces.md as it will be written, before anything is.
type AccessPlan struct {
	Path    string
	Content []byte
	Old     []byte // the file on disk, when there is one
	Status  FileStatus
	Signed  bool // the file on disk carries a signature block
	// SignatureHolds: that signature verifies and the session's key made it;
	// only then is the file called « signé ».
	SignatureHolds bool
	Record         Record
	Warning        string
	Key            string // the fingerprint line written
	Stale          bool   // the file on disk does not state this declaration
	// DateOnly is the file on disk with only its date line set to Content's.
	DateOnly, dateFrom []byte
}

// Diff is the change as a unified diff, private key lines left out.
func (p *AccessPlan) Diff(color bool) string { return p.diff(p.Old, p.Content, "nouveau", color) }

// DateDiff is DateOnly's change.
func (p *AccessPlan) DateDiff(color bool) string {
	return p.diff(p.dateFrom, p.DateOnly, "nouvelle date", color)
}

// diff shows no line of key material, and says which lines it empties:
// an empty line in a diff says nothing of a key pasted there.
func (p *AccessPlan) diff(from, to []byte, label string, color bool) string {
	was, key := leak.Redact(string(from))
	will, _ := leak.Redact(string(to))
	note := ""
	if len(key) > 0 {
		note = fmt.Sprintf("Clé privée dans %s (actuel), %s : ces lignes sont montrées vides ; considérez cette clé comme compromise.\n",
			termtext.Escape(p.Path), termtext.LineRanges(key))
	}
	return note + UnifiedDiff(p.Path+" (actuel)", p.Path+" ("+label+")", []byte(was), []byte(will), color)
}

// dateOnly fills p.Stale, and p.DateOnly when editing the date line is enough.
func (p *AccessPlan) dateOnly() {
	was, want := acces.Validate(p.Old, acces.Rules{}), acces.Validate(p.Content, acces.Rules{})
	p.Stale = was.Date != p.Record.Date || was.Status != "" && was.Status != p.Record.Status
	if !p.Stale || was.DateLine == 0 || want.DateLine == 0 {
		return
	}
	from := p.Old
	if f := signing.SplitSigned(p.Old); f.Claimed {
		if !f.Replaceable() {
			return // text pret cannot place around a block: by hand
		}
		from = f.Message
	}
	lines := bytes.SplitAfter(from, []byte("\n"))
	i := was.DateLine - 1
	if i >= len(lines) {
		return
	}
	line := bytes.TrimRight(bytes.SplitAfter(p.Content, []byte("\n"))[want.DateLine-1], "\r\n")
	old := bytes.TrimRight(lines[i], "\r\n")
	// The line keeps its own list marker or indent and line ending.
	lines[i] = slices.Concat(lineLead(old), line[len(lineLead(line)):], lines[i][len(old):])
	edited := bytes.Join(lines, nil)
	// A file differing by its date line alone was just refused that change.
	if acces.Validate(edited, acces.Rules{}).Date == p.Record.Date && !bytes.Equal(edited, p.Content) {
		p.DateOnly, p.dateFrom = edited, from
	}
}

// lineLead is l's indentation and block quote or list marker ("  - ").
func lineLead(l []byte) []byte {
	i := len(l) - len(bytes.TrimLeft(l, " \t"))
	return l[:i+mdbounds.MarkerLen(string(l[i:]))]
}

// PlanAccess renders acces.md and compares it with the file on disk.
func PlanAccess(s Settings, d Declaration) (*AccessPlan, error) {
	p, err := s.render(d)
	if err != nil {
		return nil, err
	}
	old, err := safefile.Read(s.File, safefile.Access, safefile.NoFollow)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		p.Status = FileNew
	case errors.Is(err, safefile.ErrTooLarge), errors.Is(err, safefile.ErrSymlink):
		// Not pret's acces.md: the link itself is replaced, after a yes or --force.
		p.Status = FileDifferent
		p.Old = []byte("(" + safefile.Reason(err) + ")\n")
	case err != nil:
		return nil, &Error{Msg: fmt.Sprintf("%s est illisible : %s", s.File, safefile.Reason(err)),
			Hint: "vérifiez ce chemin et ses droits, ou choisissez un autre dossier pour acces.md"}
	default:
		p.Old = old
		signed := signing.SplitSigned(old)
		p.Signed = signed.Claimed || bytes.Contains(old, []byte("-----BEGIN SSH SIGNATURE-----"))
		p.SignatureHolds = signatureHolds(signed, s.Store)
		if bytes.Equal(old, p.Content) ||
			signed.Claimed && signed.Err == nil && bytes.Equal(signed.Message, p.Content) {
			p.Status = FileSame
		} else {
			p.Status = FileDifferent
			p.dateOnly()
		}
	}
	return p, nil
}

// render is acces.md for d after the checks of the key and the template.
func (s Settings) render(d Declaration) (*AccessPlan, error) {
	st, err := s.Store.Inspect()
	if err != nil {
		return nil, keyError(s.Store, err)
	}
	const fixKey = "créez ou réparez la clé avec « pret cle », puis relancez"
	switch {
	case st.Kind != keys.Present:
		return nil, refused(fixKey, "pas de clé à %s : acces.md a besoin de son empreinte", s.Store.PrivatePath())
	case st.Private.Public == nil || !keys.IsEd25519(st.Private.Public):
		return nil, refused(fixKey, "la clé %s n'est pas ed25519", s.Store.PrivatePath())
	case !st.PubMatches():
		return nil, refused(fixKey, "%s manque ou ne correspond pas à la clé privée", s.Store.PublicPath())
	case strings.ContainsAny(s.Store.PublicPath(), "`\r\n"):
		// Written between backquotes, the path would end at its own: valid
		// to pret valider, yet never the key's path for pret verifier.
		return nil, refused("placez la clé dans un dossier dont le chemin n'a ni accent grave ni retour à la ligne (--cle-dossier), puis relancez",
			"le chemin de la clé publique, %s, contient un accent grave (`) ou un retour à la ligne : acces.md l'écrit entre accents graves, où il serait coupé", s.Store.PublicPath())
	}
	warning, err := CheckAccessDate(d.Date, s.Today, s.Session.Day)
	if err != nil {
		return nil, &Error{Msg: err.Error(), Hint: "donnez le jour de la demande ou de la vérification, aujourd'hui au plus tard"}
	}
	// A key made elsewhere (ssh-keygen -C) may hold ESC, BEL or U+202E in its
	// comment: written escaped as ssh-keygen -lf prints it, never raw in a file
	// the organisers open in a terminal.
	line := keys.FingerprintLine(st.Pub.Key, termtext.Escape(st.Pub.Comment))
	content, err := templates.Render(s.Template, templates.Access{
		SessionTitle: s.Session.Title,
		SessionDay:   s.Session.Day,
		Start:        s.Session.Start,
		End:          s.Session.End,
		Verified:     d.Verified(),
		Date:         d.Date,
		PublicKey:    s.Store.PublicPath(),
		Fingerprint:  line,
	})
	if err != nil {
		return nil, &Error{Msg: err.Error(), Hint: "corrigez le modèle donné par acces.modele, ou videz ce réglage pour le modèle intégré", Input: true}
	}
	if s.Template != "" {
		// A custom template's result that `pret valider` refuses is never written.
		res := acces.Validate(content, acces.Rules{KeyName: s.Store.Name + ".pub", SessionDay: s.Session.Day, Today: s.Today})
		if why := errorsOf(res.Problems, false); len(why) > 0 {
			return nil, &Error{Input: true,
				Msg:  fmt.Sprintf("le modèle d'acces.md (acces.modele) donne un fichier que « pret valider » refuse : %s ; rien n'a été écrit", strings.Join(why, " ; ")),
				Hint: "corrigez le modèle pour qu'il garde la date, le chemin de la clé publique, l'empreinte et la phrase du cours, ou videz acces.modele pour le modèle intégré"}
		}
	}
	return &AccessPlan{
		Path:    s.File,
		Content: content,
		Record:  Record{Status: d.Status, Date: d.Date.Format(dates.ISO)},
		Warning: warning,
		Key:     line,
	}, nil
}

// errorsOf is the validator's errors as "message [code]", but for skip.
func errorsOf(problems []checklist.Problem, withLine bool, skip ...checklist.Code) []string {
	var errs []string
	for _, p := range problems {
		if p.Severity != checklist.SevError || slices.Contains(skip, p.Code) {
			continue
		}
		e := fmt.Sprintf("%s [%s]", strings.TrimSuffix(p.Message, "."), p.Code)
		if withLine && p.Line > 0 {
			e = fmt.Sprintf("ligne %d : %s", p.Line, e)
		}
		errs = append(errs, e)
	}
	return errs
}

// What a failure of the state's lock or write left: the declaration not
// noted and acces.md untouched, or it noted and the rest intact.
const (
	notNoted, untouched = "état non enregistré", "acces.md n'a pas été touché"
	notDone, intact     = "déclaration notée ; acces.md et son chemin dans l'état non écrits", "l'ancien acces.md, s'il existait, est intact"
)

// errNotWritten: acces.md failed, the declaration noted; the wizard asks again.
var errNotWritten = errors.New("acces.md non écrit")

// Recording is one declaration to record, and acces.md to write.
type Recording struct {
	Settings
	Declaration
	// State is the state file as the command read it (LoadState); never
	// nil. It plans; a record is added to the file as it is when written.
	State                *State
	Replace, ReplaceDate func(*AccessPlan) (bool, error) // nil keeps the file
	ForceState           bool                            // set an unreadable state aside (--force)
	Guard                func(func() error) error        // a signal waits for the writes
	noted                *Outcome                        // the note already taken (the wizard's), or nil
}

// Outcome is what RecordAccess did.
type Outcome struct {
	Plan      *AccessPlan
	DateOnly  bool        // only the date line of the file on disk was changed
	Kept      bool        // acces.md had other content and was kept byte for byte
	Noted     bool        // a record was added to the state file
	StateErr  *StateError // the state file could not be read and was left as it is
	StateCopy string      // where an unreadable state was set aside (ForceState)
}

// RecordAccess plans, records the declaration, asks, and writes. The
// declaration is recorded before any question (even when acces.md is kept
// in the end): Ctrl-C at one of them loses no answer already given. The
// outputs were checked once, before (CheckOutputs); the writes themselves
// never land on the key (safefile.Protected).
func RecordAccess(r Recording) (*Outcome, error) {
	if err := beforeRequest(r.State, r.Declaration); err != nil {
		return nil, err
	}
	plan, err := PlanAccess(r.Settings, r.Declaration)
	if err != nil {
		return nil, err
	}
	out := &Outcome{Plan: plan}
	if r.noted != nil { // the lock is not waited for twice: a late one is finish's
		out.StateErr, out.StateCopy = r.noted.StateErr, r.noted.StateCopy
	} else if err := r.note(out); err != nil {
		return nil, err
	}
	write, content, err := r.ask(plan, out)
	if err != nil {
		return out, err
	}
	finish := func() error {
		return guarded(r.Guard, func() error {
			// Where acces.md is, once settled (the wizard may move it), in
			// the state as it is now on disk: unreadable since, left as it is.
			if state, err := LoadState(r.StatePath); out.StateErr == nil && err == nil && state.File != r.File {
				r.State, state.File = state, r.File
				if err := r.save(notDone, intact); err != nil {
					return err
				}
			}
			if !write {
				return nil
			}
			// An edit made during the question must not be lost.
			if out.DateOnly {
				if cur, _ := safefile.Read(r.File, safefile.Access, safefile.NoFollow); !bytes.Equal(cur, plan.Old) {
					return &Error{Msg: fmt.Sprintf("%s a changé pendant la question : sa date n'a pas été changée ; la déclaration est notée", termtext.Escape(r.File)),
						Hint: "relisez-le, puis relancez pret"}
				}
			}
			if err := Protected(r.Store).WriteReplace(r.File, content, 0o644); err != nil {
				return &Error{Msg: fmt.Sprintf("%s non écrit : %s", r.File, safefile.Reason(err)), Err: fmt.Errorf("%w : %w", errNotWritten, err),
					Hint: "vérifiez la place et les droits du dossier ; l'ancien fichier, s'il existait, est intact"}
			}
			return nil
		})
	}
	if out.StateErr != nil { // the state is left as it is: no lock to wait for
		return out, finish()
	}
	// The declaration is noted: Ctrl-C while another pret holds the lock
	// stops at once, and a wait too long says the declaration is kept.
	return out, r.locked(notDone, intact, finish)
}

// ask settles what to write: the new file, its date line alone, or nothing.
func (r Recording) ask(plan *AccessPlan, out *Outcome) (write bool, content []byte, err error) {
	if plan.Status != FileDifferent {
		return plan.Status != FileSame, plan.Content, nil
	}
	if r.Replace != nil {
		if write, err = r.Replace(plan); err != nil || write {
			return write, plan.Content, err
		}
	}
	if plan.DateOnly != nil && r.ReplaceDate != nil {
		if write, err = r.ReplaceDate(plan); err != nil {
			return false, nil, err
		}
		out.DateOnly = write
	}
	out.Kept = !write
	return write, plan.DateOnly, nil
}

// note appends the declaration to the state file (setting an unreadable one
// aside with ForceState), under the guard; out says what it did. The lock
// is awaited under the guard too: Ctrl-C waits (10 s at most) for the date
// confirmed to be noted, as the docs promise.
func (r *Recording) note(out *Outcome) error {
	return guarded(r.Guard, func() error {
		return r.locked(notNoted, untouched, func() error {
			// Read again, as it is now: another run may have added a record
			// during the questions (none is ever lost), or the file may have
			// become a link or unreadable (never written over).
			state, err := LoadState(r.StatePath)
			r.State = state
			out.StateErr, _ = err.(*StateError)
			if out.StateErr != nil && r.ForceState {
				copyPath, err := setAsideState(Protected(r.Store), r.StatePath, r.Today)
				if err != nil {
					return &Error{Msg: fmt.Sprintf("%s n'a pas pu être mis de côté : %s", r.StatePath, safefile.Reason(err)),
						Hint: "vérifiez où mène ce chemin ; si c'est bien l'état de pret, déplacez ce fichier vous-même, puis relancez"}
				}
				out.StateCopy, out.StateErr = copyPath, nil
				r.State = &State{}
			}
			if out.StateErr != nil {
				return nil
			}
			rec := Record{Status: r.Status, Date: r.Date.Format(dates.ISO)}
			if !r.State.appendRecord(rec, time.Now()) {
				return nil
			}
			if err := r.save(notNoted, untouched); err != nil {
				return err
			}
			out.Noted = true
			return nil
		})
	})
}

// save writes r.State whole; a failure says failed, then kept.
func (r *Recording) save(failed, kept string) error {
	if err := saveState(Protected(r.Store), r.StatePath, r.State); err != nil {
		return r.stateErr(failed, kept, err)
	}
	return nil
}

// stateErr says what was not written to the state, why, and what to do.
func (r *Recording) stateErr(failed, kept string, err error) error {
	hint := "vérifiez la place et les droits de ce dossier"
	switch {
	case errors.Is(err, safefile.ErrBusy):
		hint = "attendez qu'il ait fini, puis relancez pret"
	case errors.Is(err, safefile.ErrTooLarge):
		hint = "allégez ou déplacez ce fichier, puis relancez pret"
	}
	return &Error{Msg: fmt.Sprintf("%s (%s) : %s", failed, r.StatePath, safefile.Reason(err)), Err: err,
		Hint: hint + " ; " + kept}
}

// locked runs f, which reads the state and may replace it, with the state's
// folder (made if need be) locked: runs that meet take turns, and neither
// loses the record of the other. A lock not had says failed, then kept.
func (r *Recording) locked(failed, kept string, f func() error) error {
	var unlock func()
	dir := filepath.Dir(r.StatePath)
	err := os.MkdirAll(dir, 0o700)
	if err == nil {
		unlock, err = safefile.LockDir(dir, cmp.Or(r.LockWait, 10*time.Second))
	}
	if err != nil {
		return r.stateErr(failed, kept, err)
	}
	defer unlock()
	return f()
}

// beforeRequest refuses a verification dated before the recorded request.
func beforeRequest(st *State, d Declaration) error {
	if _, requested, ok := st.Latest(StatusRequested); ok && d.Verified() && d.Date.Before(requested) {
		return &Error{Msg: fmt.Sprintf("la vérification (%s) ne peut pas précéder la demande notée le %s", dates.Long(d.Date), dates.Long(requested)),
			Hint: "donnez le jour où vous avez trouvé le compte ouvert, après la demande"}
	}
	return nil
}

// Output is a path about to be written and the setting that named it.
type Output struct{ Path, Setting string }

// CheckOutputs refuses an output on the key, its .pub, or in its folder, however spelled.
func CheckOutputs(store keys.Store, outs ...Output) error {
	guard := Protected(store)
	for _, o := range outs {
		if err := guard.CheckTree(o.Path); err != nil {
			dirs := termtext.Escape(strings.Join(keyFolders(store), " et "))
			return &Error{Input: true, Err: err,
				Msg:  fmt.Sprintf("%s (%s) mène à la clé SSH %s ou sous %s : pret n'y écrit jamais ; rien n'a été écrit", o.Setting, termtext.Escape(o.Path), termtext.Escape(store.PrivatePath()), dirs),
				Hint: fmt.Sprintf("choisissez pour %s un chemin hors de %s", o.Setting, dirs)}
		}
	}
	return nil
}

// UnifiedDiff is `diff -u`, every line escaped: a file's bytes never drive the terminal.
func UnifiedDiff(oldName, newName string, old, new []byte, color bool) string {
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	var lines []string
	for i, l := range strings.Split(string(diff.Diff("a", old, "b", new)), "\n") {
		switch {
		case i < 3 || l == "": // diff's own header, the end
		case l == `\ No newline at end of file`:
			lines[len(lines)-1] += "  (pas de saut de ligne final)"
		case strings.HasPrefix(l, "@@"):
			// "@@ -a,b +c,d @@" with a count of 1 left out, as diff -u does.
			lines = append(lines, strings.ReplaceAll(l, ",1 ", " "))
		default:
			lines = append(lines, l[:1]+termtext.Escape(l[1:]))
		}
	}
	var out strings.Builder
	out.WriteString(paint("1", "--- "+termtext.Escape(oldName)) + "\n")
	out.WriteString(paint("1", "+++ "+termtext.Escape(newName)) + "\n")
	colors := map[byte]string{'@': "36", '-': "31", '+': "32"}
	for _, l := range lines {
		if c, ok := colors[l[0]]; ok {
			l = paint(c, l)
		}
		out.WriteString(l + "\n")
	}
	return out.String()
}
