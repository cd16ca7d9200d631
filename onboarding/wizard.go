package onboarding

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/romeo-pret/pret/templates"
)

// Wizard is the guided path of `pret`: banner, key, account, acces.md,
// checklist. It never asks for a host name and never connects anywhere.
type Wizard struct {
	Settings
	Channel string // how to ask for the account, as the organisers said
	P       Prompter
	Out     io.Writer
	Random  io.Reader
	// Guard runs a write so that a signal waits for it to end.
	Guard func(func() error) error
	// Signer, when set, is offered after acces.md is written: the
	// learner proves now, not on the morning of the session, that the key
	// is theirs and that they remember its passphrase.
	Signer *AccessSigner
	// Checklist runs `pret verifier` and prints its summary on Out; its
	// error is Run's (cmd turns a failed check into an exit code).
	Checklist func() error
}

// Banner is the session and how far away it is.
func Banner(s Session, today time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Séance ROMEO : %s\n", s.Title)
	fmt.Fprintf(&b, "Le %s.\n", templates.SessionWhen(s.Day, s.Start, s.End))
	days := int(s.Day.Sub(today).Hours() / 24)
	switch {
	case days > 1:
		fmt.Fprintf(&b, "Il reste %d jours pour préparer le compte d'accès et la clé.\n", days)
	case days == 1:
		b.WriteString("La séance a lieu demain.\n")
	case days == 0:
		b.WriteString("La séance a lieu aujourd'hui.\n")
	default:
		b.WriteString("La séance est passée ; la clé et acces.md servent pour la prochaine.\n")
	}
	return b.String()
}

func (w *Wizard) guard(f func() error) error {
	if w.Guard == nil {
		return f()
	}
	return w.Guard(f)
}

// Run walks the learner through. A failed checklist is its error.
func (w *Wizard) Run() error {
	fmt.Fprintln(w.Out, Banner(w.Session, w.Today))

	fmt.Fprintln(w.Out, "1. La clé SSH dédiée à la séance")
	var res *KeyResult
	pass := func() ([]byte, error) {
		fmt.Fprintf(w.Out, "Aucune clé en %s : pret va la créer (ed25519).\n", w.Store.PrivatePath())
		return AskPassphrase(w.P, w.Out)
	}
	// The passphrase is asked before the guarded write, so a signal at
	// the question does not wait for anything.
	res, err := EnsureKey(w.Store, w.Random, pass, w.guard)
	if err != nil {
		return err
	}
	if res.Created {
		fmt.Fprintf(w.Out, "Clé créée : %s\nClé publique : %s\n", w.Store.PrivatePath(), w.Store.PublicPath())
	} else {
		fmt.Fprintf(w.Out, "Clé existante conservée : %s\n", w.Store.PrivatePath())
	}
	if res.Rebuilt {
		fmt.Fprintf(w.Out, "Clé publique recréée depuis la clé privée : %s\n", w.Store.PublicPath())
	}
	for _, warn := range res.Warnings {
		fmt.Fprintf(w.Out, "Attention : %s.\nConseil : %s.\n", warn.Msg, warn.Hint)
	}
	fmt.Fprintf(w.Out, "Empreinte : %s\n\n", res.Line)

	fmt.Fprintln(w.Out, "2. Le compte d'accès")
	verified, date, err := w.askAccount()
	if err != nil {
		return err
	}

	fmt.Fprintln(w.Out, "\n3. Le fichier acces.md")
	plan, err := PlanAccess(w.Settings, verified, date)
	if err != nil {
		return err
	}
	if plan.Warning != "" {
		fmt.Fprintf(w.Out, "Attention : %s.\n", plan.Warning)
	}
	write := true
	if plan.Status == FileDifferent {
		write, err = askYesNo(w.P, fmt.Sprintf("%s existe déjà avec un autre contenu. Le remplacer ?", w.File), false,
			"Oui : l'ancien contenu est remplacé en entier. Non : le fichier reste tel quel.")
		if err != nil {
			return err
		}
	}
	if write {
		if err := w.guard(func() error { return plan.Apply(w.Settings) }); err != nil {
			return err
		}
		switch plan.Status {
		case FileSame:
			fmt.Fprintf(w.Out, "%s est déjà à jour.\n", w.File)
		default:
			fmt.Fprintf(w.Out, "%s écrit.\n", w.File)
		}
	} else {
		fmt.Fprintf(w.Out, "%s conservé tel quel ; la date n'a pas été notée.\n", w.File)
	}
	if w.Signer != nil {
		if err := OfferSignature(w.P, w.Out, w.Signer); err != nil {
			return err
		}
	}
	fmt.Fprintln(w.Out, "Envoyez le .pub seulement si les organisateurs le demandent ; la clé privée reste sur ce portable.")

	fmt.Fprintln(w.Out, "\n4. La liste de contrôle")
	if w.Checklist == nil {
		return nil
	}
	return w.Checklist()
}

// askAccount asks whether the account is open and the matching date.
// One account per learner: a "no" never suggests asking twice.
func (w *Wizard) askAccount() (verified bool, date time.Time, err error) {
	i, err := w.P.Select("Avez-vous déjà un compte d'accès ouvert ?",
		[]string{"Oui, il est ouvert", "Non, pas encore"}, 1,
		"Le compte d'accès ouvre la séance. Si vous l'avez déjà, n'en demandez pas un second.")
	if err != nil {
		return false, time.Time{}, err
	}
	verified = i == 0
	question := "Date de la vérification du compte (AAAA-MM-JJ) :"
	if !verified {
		channel := w.Channel
		if channel == "" {
			channel = "par le canal indiqué par les organisateurs"
		}
		fmt.Fprintf(w.Out, "Demandez le compte d'accès %s, une seule fois.\n", channel)
		fmt.Fprintln(w.Out, "pret ne connaît pas le nom du nœud de login : il viendra des organisateurs.")
		question = "Date de la demande du compte (AAAA-MM-JJ) :"
	}
	today := w.Today.Format("2006-01-02")
	for {
		answer, err := w.P.Input(question, today, "Aujourd'hui par défaut. Une date passée est acceptée, pas une date future.")
		if err != nil {
			return false, time.Time{}, err
		}
		d, err := ParseDay(strings.TrimSpace(answer))
		if err == nil {
			_, err = CheckAccessDate(d, w.Today, w.Session.Day)
		}
		if err != nil {
			fmt.Fprintf(w.Out, "✘ %s.\n", capitalize(err.Error()))
			continue
		}
		return verified, d, nil
	}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}
