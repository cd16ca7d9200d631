package onboarding

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/romeo-pret/pret/templates"
)

// Wizard is the guided path of `pret`; it never asks for a host name nor connects anywhere.
type Wizard struct {
	Settings
	Channel string // how to ask for the account, as the organisers said
	P       Prompter
	Out     io.Writer
	Random  io.Reader
	Guard   func(func() error) error // a signal waits for a write
	// Signer, when set, is offered after acces.md: the passphrase proven before the session.
	Signer *AccessSigner
	// Checklist is `pret verifier` on the state as the wizard left it; its error is Run's.
	Checklist func(accessFile string, st *State, serr *StateError) error
	Color     bool   // colour the diff (a terminal without NO_COLOR)
	GOOS      string // for the agent command of the last screen
}

// Banner is the session and how far away it is.
func Banner(s Session, today time.Time) string {
	// The title and the hours come from the configuration: escaped.
	return fmt.Sprintf("Séance ROMEO : %s\nLe %s.\n%s\n", esc(s.Title), esc(templates.SessionWhen(s.Day, s.Start, s.End)), DaysLeft(s, today))
}

// Run walks the learner through; a failed checklist is its error.
func (w *Wizard) Run() error {
	fmt.Fprintln(w.Out, Banner(w.Session, w.Today))

	fmt.Fprintln(w.Out, "1. La clé SSH dédiée à la séance")
	// Asked before the guarded write: a signal at the question waits for nothing.
	res, err := EnsureKey(w.Store, w.Random, func() ([]byte, error) {
		fmt.Fprintf(w.Out, "Aucune clé à %s : pret va la créer (ed25519).\n", esc(w.Store.PrivatePath()))
		return AskPassphrase(w.P, w.Out)
	}, w.Guard)
	if err != nil {
		return err
	}
	res.Say(w.Out, w.Store, "")
	for _, warn := range res.Warnings {
		warnHint(w.Out, warn.Msg, warn.Hint)
	}
	// The comment is the .pub's: escaped like every string from a file.
	fmt.Fprintf(w.Out, "Empreinte : %s\n\n", esc(res.Line))
	// A broken setting must not end the wizard once the date is typed: both branches.
	for _, status := range []string{StatusRequested, StatusVerified} {
		if _, err := w.Settings.render(Declaration{status, w.Today}); err != nil {
			return err
		}
	}

	fmt.Fprintln(w.Out, "2. Le compte d'accès")
	state, err := LoadState(w.StatePath)
	serr, _ := err.(*StateError)
	decl, err := Account{P: w.P, Out: w.Out, State: state, StateErr: serr, Channel: w.Channel, Today: w.Today, Session: w.Session.Day}.Ask()
	if err != nil {
		return err
	}

	fmt.Fprintln(w.Out, "\n3. Le fichier acces.md")
	next := Next{Channel: w.Channel, Store: w.Store, Home: w.Home, GOOS: w.GOOS, Session: w.Session, Today: w.Today}
	if decl == nil {
		fmt.Fprintln(w.Out, "acces.md attend la date de la demande : il sera écrit quand vous relancerez pret, la demande faite.")
	} else if err := w.accessStep(Recording{Settings: w.Settings, Declaration: *decl, State: state, Guard: w.Guard}, &next); err != nil {
		return err
	}

	fmt.Fprintln(w.Out, "\n4. La liste de contrôle")
	var checked error
	if w.Checklist != nil {
		// The checklist says what is on disk now, as pret verifier would.
		state, err = LoadState(w.StatePath)
		serr, _ = err.(*StateError)
		checked = w.Checklist(w.File, state, serr)
	}
	fmt.Fprint(w.Out, "\n"+NextSteps(next))
	return checked
}

// accessStep records decl at once, then settles acces.md's folder and content,
// and offers the signature.
func (w *Wizard) accessStep(r Recording, next *Next) error {
	if last := r.State.File; last != "" && last != w.File { // written elsewhere last time
		if fi, err := os.Stat(last); err == nil && fi.Mode().IsRegular() {
			fmt.Fprintf(w.Out, "La dernière fois, acces.md a été écrit ailleurs : %s\n", esc(last))
			w.File = last
		}
	}
	// Noted at once: Ctrl-C at the folder or the replacement loses no date.
	// ReadAccessDate has refused a verification before the request.
	early := &Outcome{}
	if err := r.note(early); err != nil {
		return err
	}
	r.noted = early
	var out *Outcome
	var err error
	// Not writable after all: the declaration is noted, the folder asked again.
	for why := ""; ; why = "pret n'a pas pu y écrire acces.md ; choisissez un autre dossier" {
		if w.File, err = Where(w.P, w.Out, w.File, w.Home, w.Store, why); err != nil {
			return err
		}
		r.Settings, r.Replace, r.ReplaceDate = w.Settings, AskReplace(w.P, w.Out, w.Color), AskDateLine(w.P, w.Out, w.Color)
		out, err = RecordAccess(r)
		var e *Error
		if !errors.Is(err, errNotWritten) || !errors.As(err, &e) {
			break
		}
		fmt.Fprintf(w.Out, "✘ %s.\n", esc(e.Msg))
	}
	if err != nil {
		return err
	}
	out.Noted = out.Noted || early.Noted
	w.report(out)
	next.AccessFile = w.File
	if out.Kept && out.Plan.Stale {
		next.Declared = &r.Declaration
	}
	if out.Kept && out.Plan.Stale && w.Signer != nil {
		// Signing it would vouch for a date the learner just said is wrong.
		fmt.Fprintln(w.Out, "acces.md n'indique pas la date que vous venez de donner : il n'est pas proposé à la signature (corrigez-le d'abord, voir plus bas).")
	} else if w.Signer != nil {
		signer := *w.Signer
		signer.File = w.File // the folder may have changed
		if err := OfferSignature(w.P, w.Out, &signer); err != nil {
			return err
		}
	}
	return nil
}

// AskReplace asks about an acces.md that differs, in one write for the wrapper.
func AskReplace(pr Prompter, out io.Writer, color bool) func(*AccessPlan) (bool, error) {
	return func(p *AccessPlan) (bool, error) {
		io.WriteString(out, fmt.Sprintf("%s existe déjà avec un autre contenu. Les changements :\n", esc(p.Path))+p.Diff(color))
		if p.Signed { // Replace is asked only of a file that differs
			fmt.Fprintln(out, signatureNote(p, "le remplacer"))
		}
		return askYesNo(pr, fmt.Sprintf("%s existe déjà avec un autre contenu. Le remplacer ?", esc(p.Path)), false,
			"Oui : l'ancien contenu est remplacé en entier. Non : le fichier reste tel quel ; votre déclaration est notée quand même.")
	}
}

// signatureNote says what a change does to the file's signature block,
// « signé » only when its signature holds.
func signatureNote(p *AccessPlan, change string) string {
	if p.SignatureHolds {
		return fmt.Sprintf("Attention : ce fichier est signé ; %s lui retire sa signature (« pret signer » la refait).", change)
	}
	return fmt.Sprintf("Ce fichier porte une signature qui ne tient plus (fichier modifié depuis sa signature, ou autre clé) ; %s la retire (« pret signer » en fait une nouvelle).", change)
}

// AskDateLine follows a "Non" when the kept file states another date.
func AskDateLine(pr Prompter, out io.Writer, color bool) func(*AccessPlan) (bool, error) {
	return func(p *AccessPlan) (bool, error) {
		io.WriteString(out, "Votre fichier n'indique pas la date que vous venez de donner. pret peut changer seulement sa ligne de date :\n"+p.DateDiff(color))
		if p.Signed {
			fmt.Fprintln(out, signatureNote(p, "changer sa date"))
		}
		return askYesNo(pr, "Changer seulement la ligne de la date ?", true,
			"Oui : cette ligne change, le reste du fichier reste tel quel. Non : le fichier reste tel quel, octet pour octet.")
	}
}

// report says what RecordAccess did.
func (w *Wizard) report(out *Outcome) {
	p := out.Plan // its Warning, a late date, was said with the date
	switch {
	case out.DateOnly:
		fmt.Fprintf(w.Out, "%s : seule la ligne de la date a changé.\n", esc(p.Path))
	case out.Kept:
		fmt.Fprintf(w.Out, "%s conservé tel quel, octet pour octet.\n", esc(p.Path))
	case p.Status == FileSame:
		fmt.Fprintf(w.Out, "%s est déjà à jour.\n", esc(p.Path))
	default:
		fmt.Fprintf(w.Out, "%s écrit.\n", esc(p.Path))
	}
	switch {
	case out.StateErr != nil:
		warnHint(w.Out, "la déclaration n'est pas notée, "+out.StateErr.Error(), out.StateErr.Hint())
	case out.Noted:
		fmt.Fprintf(w.Out, "Déclaration notée dans %s.\n", esc(w.StatePath))
	}
}

// warnHint says a problem that stops nothing, and what to do about it.
func warnHint(out io.Writer, msg, hint string) {
	fmt.Fprintf(out, "Attention : %s.\nConseil : %s.\n", esc(msg), esc(hint))
}
