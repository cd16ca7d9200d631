package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/onboarding"
)

func settings(c *Config) (onboarding.Settings, error) {
	s := onboarding.Settings{
		Session:   onboarding.Session{Title: c.SessionTitle, Day: c.SessionDay, Start: c.SessionStart, End: c.SessionEnd},
		Store:     c.Key,
		File:      c.AccessFile,
		StatePath: c.StatePath,
		Today:     c.Today,
	}
	// Before any question: an output on the key is a setting to fix (a
	// mistaken XDG_STATE_HOME=~/.ssh puts the state in ~/.ssh/pret).
	file := onboarding.Output{Path: s.File, Setting: "acces.fichier"}
	if err := onboarding.CheckOutputs(c.Key, file, onboarding.Output{Path: s.StatePath, Setting: "le fichier d'état (XDG_STATE_HOME)"}); err != nil {
		return s, err
	}
	if err := notState(file, s.StatePath); err != nil {
		return s, err
	}
	s.Home, _ = os.UserHomeDir()
	if c.AccessModel != "" {
		// Untrusted input: the bounded reader (templates.Render bounds the rest).
		text, err := safefile.Read(c.AccessModel, safefile.Template, safefile.FollowLink)
		if err != nil {
			return s, usageError("corrigez acces.modele, ou videz-le pour le modèle intégré", "modèle d'acces.md illisible : %s", termtext.Escape(err.Error()))
		}
		s.Template = string(text)
	}
	return s, nil
}

// accesOptions are what `pret acces` is given.
type accesOptions struct {
	app          *app
	status, date string // "" to ask on a terminal; "" for the default date
	force, sign  bool
	passFile     string // with sign: the passphrase's file, "-" standard input
}

// newAccesCmd runs runF, when not nil, instead of runAcces (gh's NewCmdX).
func newAccesCmd(a *app, runF func(*accesOptions) error) *cobra.Command {
	opts := &accesOptions{app: a}
	c := &cobra.Command{
		Use:     "acces [--statut demande|verifie] [--date AAAA-MM-JJ] [--force] [--signer]",
		Aliases: []string{"access"},
		Short:   "Noter la date du compte d'accès et écrire acces.md",
		Long: `Note la date de la demande du compte d'accès (--statut demande), ou la
date à laquelle vous avez vérifié qu'il est ouvert (--statut verifie), puis
écrit acces.md avec ses quatre éléments : la date, le chemin de la clé
publique, l'empreinte avec le type ED25519, et la phrase du cours.

La date s'écrit comme on la tape, le jour d'abord : 2026-10-20,
20/10/2026, 20-10-2026, 2/9/2026, « 20 octobre 2026 »,
« 1er octobre 2026 », « mardi 20 octobre 2026 », aujourd'hui ou hier.
Sans --date : celle déjà notée pour ce statut, sinon aujourd'hui ; elle ne
peut pas être dans le futur (toute date refusée : code 2). Chaque
déclaration s'ajoute à l'historique du fichier d'état, sans effacer les
précédentes ; elle est notée avant toute question sur acces.md.
Un acces.md au contenu différent n'est remplacé qu'après un oui dans le
terminal, ou avec --force. Il faut la clé : « pret cle ».

Avec --signer, acces.md est signé juste après (comme « pret signer ») : la
passphrase est demandée dans le terminal, ou lue avec --passphrase-file.`,
		Example: `  pret acces --statut demande
  pret acces --statut verifie --date 2026-10-23
  pret acces --statut demande --date "20 octobre 2026"
  pret acces --statut demande --force
  pret acces --statut demande --signer`,
		RunE: func(*cobra.Command, []string) error { return pick(runF, runAcces)(opts) },
	}
	choiceFlag(c, &opts.status, "statut", "", "statut", []string{onboarding.StatusRequested, onboarding.StatusVerified}, "`STATUT` : demande (date de la demande) ou verifie (date de la vérification du compte ouvert)")
	c.Flags().Var(&checkedValue{p: &opts.date, check: checkTypedDay}, "date", "la `DATE` : 2026-10-20, 20/10/2026, \"20 octobre 2026\", aujourd'hui, hier (défaut : celle déjà notée pour ce statut, sinon aujourd'hui)")
	c.Flags().BoolVar(&opts.force, "force", false, "remplacer sans demander un acces.md au contenu différent, et un fichier d'état illisible (gardé en copie)")
	c.Flags().BoolVar(&opts.sign, "signer", false, "signer acces.md juste après l'avoir écrit (voir « pret signer »)")
	pathFlag(c.Flags(), &opts.passFile, "passphrase-file", "avec --signer : lire la passphrase dans ce `FICHIER` (première ligne ; - pour l'entrée standard)")
	return c
}

// runAcces records a declaration (asked when status is empty), writes acces.md.
func runAcces(opts *accesOptions) error {
	cfg, ios := opts.app.cfg, opts.app.io
	s, err := settings(cfg)
	if err != nil {
		return err
	}
	if opts.passFile != "" && !opts.sign {
		return usageError("ajoutez --signer pour signer acces.md après l'avoir écrit", "--passphrase-file ne sert qu'avec --signer")
	}
	if opts.sign {
		// Before anything is written: no half-done job.
		if err := checkPassSource(opts.passFile, ios, "pret acces --signer"); err != nil {
			return err
		}
	}
	// Its records are the defaults; an unreadable one is said at the end.
	state, err := onboarding.LoadState(s.StatePath)
	serr, _ := err.(*onboarding.StateError)
	screen := wrappingWriter{ios}
	decl, err := accesDeclaration(opts, s, state, serr)
	if err != nil || decl == nil {
		return err
	}
	rec := onboarding.Recording{Settings: s, Declaration: *decl, State: state, ForceState: opts.force, Guard: guarded}
	switch {
	case opts.force:
		rec.Replace = func(*onboarding.AccessPlan) (bool, error) { return true, nil }
	case ios.Interactive():
		rec.Replace = onboarding.AskReplace(ios.Prompter(), screen, ios.Color())
		rec.ReplaceDate = onboarding.AskDateLine(ios.Prompter(), screen, ios.Color())
	}
	out, err := onboarding.RecordAccess(rec)
	if err != nil {
		return err
	}
	if err := reportAcces(ios, screen, s, *decl, out); err != nil {
		return err
	}
	if opts.sign {
		return signAccess(cfg, s.File, opts.passFile, ios)
	}
	return nil
}

// accesDeclaration is the declaration to record: from --statut and --date,
// or asked on a terminal; nil (and no error) when the learner has none yet.
func accesDeclaration(opts *accesOptions, s onboarding.Settings, state *onboarding.State, serr *onboarding.StateError) (*onboarding.Declaration, error) {
	ios, status, date := opts.app.io, opts.status, opts.date
	switch {
	case status != "":
		// Running the command again never moves a recorded date.
		decl := onboarding.Declaration{Status: status, Date: onboarding.DefaultDate(state, status, s.Today)}
		if date == "" {
			return &decl, nil
		}
		d, err := onboarding.ReadAccessDate(date, state, status, s.Today, s.Session.Day)
		if err != nil {
			// Worded as the flag's own check words a refusal (errors.go); the
			// examples are today, which the refusals never refuse (outside
			// tester: a fixed day was in the future of some learners).
			t := s.Today
			hint := fmt.Sprintf("--date %s, --date %s ou --date \"%s\" (aujourd'hui), ou un jour d'avant", t.Format(dates.ISO), t.Format("02/01/2006"), dates.Day(t))
			if de, ok := errors.AsType[*dates.Error](err); ok {
				return nil, usageError(hint, "valeur refusée pour --date : « %s » ; %s", termtext.Escape(de.Input), de.Reason)
			}
			return nil, usageError(hint, "%v", err)
		}
		decl.Date = d
		return &decl, nil
	case !ios.Interactive():
		return nil, usageError("pret acces --statut demande (ou --statut verifie si le compte est déjà ouvert)", "sans terminal, --statut est obligatoire")
	case date != "":
		return nil, usageError("pret acces --statut demande --date …", "--date va avec --statut")
	}
	screen := wrappingWriter{ios}
	d, err := onboarding.Account{P: ios.Prompter(), Out: screen, State: state, StateErr: serr,
		Channel: opts.app.cfg.Channel, Today: s.Today, Session: s.Session.Day}.Ask()
	if err == nil && d == nil {
		fmt.Fprintln(screen, "Rien n'est noté : relancez « pret acces » une fois la demande faite.")
	}
	return d, err
}

// reportAcces says what RecordAccess did; a kept file or an unread state is its error.
func reportAcces(ios *iostreams, screen io.Writer, s onboarding.Settings, decl onboarding.Declaration, out *onboarding.Outcome) error {
	if out.Plan.Warning != "" {
		fmt.Fprintf(ios.Err, "pret: attention : %s\n", termtext.Escape(out.Plan.Warning))
	}
	if out.StateCopy != "" {
		fmt.Fprintf(ios.Err, "pret: attention : état illisible mis de côté : %s\n", termtext.Escape(out.StateCopy))
	}
	what := "Demande du compte d'accès notée"
	if decl.Verified() {
		what = "Vérification du compte d'accès notée"
	}
	if out.StateErr != nil {
		what = strings.Replace(what, "notée", "non notée (état illisible)", 1)
	}
	fmt.Fprintf(screen, "%s : %s (%s)\n", what, decl.Date.Format(dates.ISO), dates.Long(decl.Date))
	if out.Kept {
		// Noted all the same: the learner's own file stays as it is.
		return refusedError("relisez-le, puis relancez avec --force pour le remplacer",
			"%s existe déjà avec un autre contenu ; il n'est pas remplacé", s.File)
	}
	switch {
	case out.DateOnly:
		fmt.Fprintf(screen, "%s : seule la ligne de la date a changé\n", termtext.Escape(s.File))
	case out.Plan.Status == onboarding.FileSame:
		fmt.Fprintf(screen, "%s est déjà à jour ; il n'a pas été touché\n", termtext.Escape(s.File))
	default:
		fmt.Fprintf(screen, "acces.md écrit : %s\n", termtext.Escape(s.File))
	}
	fmt.Fprintln(screen, termtext.Escape(out.Plan.Key))
	if out.StateErr != nil {
		return refusedError(out.StateErr.Hint(), "%s : la date n'est pas notée", out.StateErr.Error())
	}
	return nil
}
