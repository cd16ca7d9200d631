package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/checklist/moodle"
	"github.com/romeo-pret/pret/checklist/submissions"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/onboarding"
)

// csvSeparators are named in words: ";" would end the shell command.
// ";" by default: a French spreadsheet reads "," as the decimal mark.
var csvSeparators = map[string]rune{"point-virgule": ';', "virgule": ',', "tabulation": '\t'}

const validerLong = `Valide les acces.md reçus, tels que la plateforme les donne : fichiers,
dossiers et archives .zip (lues sur place, jamais extraites), dans
n'importe quel ordre. Dans un dossier ou une archive, un fichier est lu
quand son nom finit par acces.md ou accès.md (toute casse), copies
« acces (1).md » et noms Moodle « Nom Prénom_123_assignsubmission_file_acces.md »
compris ; un fichier nommé sur la ligne de commande est lu quel que soit
son nom. Sans CHEMIN : le dossier courant. Les liens symboliques trouvés
dans un dossier ne sont jamais suivis.

Un apprenant est un dossier (Moodle, GitHub Classroom, un dossier par
apprenant) : un résultat chacun, même sans acces.md (no-acces-md), nommé
comme la plateforme le nomme (nom Moodle, login GitHub, nom du dossier).
Chaque problème a un code stable (missing-date, bad-fingerprint,
private-key-leak, …). Aucune sortie ne recopie une ligne de clé privée.
Une même empreinte chez deux apprenants est une erreur : deux personnes
ne partagent pas une clé.

Un acces.md signé (« pret signer ») est vérifié : une signature qui ne tient
plus (fichier modifié depuis) est bad-signature, une signature d'une autre
clé que l'empreinte indiquée est signature-key-mismatch. Avec
--exiger-signature, un fichier sans signature est invalide (unsigned).

Avec --feuille, la feuille d'évaluation Moodle (« Télécharger la feuille
d'évaluation », en français ou en anglais) : chaque rendu est relié à sa
ligne par le numéro de participant du dossier Moodle, et chaque inscrit
sans rendu devient une ligne du rapport (no-submission, avec son nom et
son adresse). --feuille-sortie écrit la feuille telle qu'elle a été lue,
la note (la « Note maximale » de la ligne, ou feuille.valide s'il est
donné, 1 sans barème ; feuille.invalide, 0) et les commentaires de
feedback remplis, prête pour « Importer la feuille d'évaluation ».
--feuille accepte aussi le roster GitHub Classroom (classroom_roster.csv),
lu sans jamais être réécrit.

Formats : texte (seuls les fichiers à corriger, sauf --tous, puis un
résumé), json, junit, csv (une ligne par fichier), sarif (analyse de code
GitHub ou GitLab), github (annotations GitHub Actions), html (une page
autonome qui se trie et se filtre).

Code de sortie 0 si tout est valide, 1 si un fichier est invalide ou si
rien n'a été trouvé, 2 pour une erreur d'utilisation.`

const validerExample = `  pret valider
  pret valider telechargement-moodle.zip
  pret valider rendus/ --format csv --sortie rendus.csv
  pret valider rendus/ --format html --sortie rapport.html
  pret valider rendus/ --format sarif --sortie pret.sarif
  pret valider rendus/kim/acces.md --strict
  pret valider rendus/ --exiger-signature
  pret valider rendus.zip --feuille feuille.csv --feuille-sortie remplie.csv`

// validerOptions are what `pret valider` is given.
type validerOptions struct {
	app                            *app
	report                         reportFlags
	paths                          []string // "." when none is given
	all, requireSig                bool
	output, sep, sheetIn, sheetOut string
	workers                        int
}

// newValiderCmd runs runF, when not nil, instead of runValider (gh's NewCmdX).
func newValiderCmd(a *app, runF func(*validerOptions) error) *cobra.Command {
	opts := &validerOptions{app: a}
	c := &cobra.Command{
		Use:     "valider [CHEMIN…] [--format FORMAT] [--strict] [--tous] [--sortie FICHIER] [--feuille FICHIER [--feuille-sortie FICHIER]]",
		Aliases: []string{"validate"},
		Args:    cobra.ArbitraryArgs,
		// The grades of --feuille-sortie, listed in this help in full.
		Annotations: map[string]string{settingAnnotation: "feuille.valide feuille.invalide"},
		Short:       "Organisateurs : valider des fichiers acces.md",
		Long:        validerLong,
		Example:     validerExample,
		RunE: func(cmd *cobra.Command, paths []string) error {
			// More readers only cost memory (2,000,000,000 exhausted it).
			maxWorkers := 4 * max(1, runtime.NumCPU())
			if opts.workers < 0 || opts.workers > maxWorkers || cmd.Flags().Changed("paralleles") && opts.workers == 0 {
				return usageError(fmt.Sprintf("--paralleles entre 1 et %d (quatre par cœur)", maxWorkers), "--paralleles %d : hors des bornes", opts.workers)
			}
			if len(paths) == 0 {
				paths = []string{"."}
			}
			// A mistyped name is a usage error; an unreadable one, a result.
			for _, p := range paths {
				if err := mustExist(p); err != nil {
					return err
				}
			}
			opts.paths = paths
			if runF != nil {
				return runF(opts)
			}
			return runValider(opts)
		},
	}
	opts.report.add(c, checklist.FileFormats)
	c.Flags().BoolVar(&opts.all, "tous", false, "en texte, lister aussi les fichiers sans problème")
	pathFlag(c.Flags(), &opts.output, "sortie", "écrire le rapport dans `FICHIER` (entier ou pas du tout) au lieu de la sortie standard")
	c.Flags().IntVar(&opts.workers, "paralleles", 0, "`N` fichiers lus en parallèle, de 1 à quatre par cœur (défaut : un par cœur)")
	c.Flags().BoolVar(&opts.requireSig, "exiger-signature", false, "un acces.md sans signature (« pret signer ») est invalide : code unsigned")
	choiceFlag(c, &opts.sep, "csv-separateur", "point-virgule", "séparateur", []string{"point-virgule", "virgule", "tabulation"},
		"en csv, le `SÉPARATEUR` des cellules : point-virgule (pour un tableur en français), virgule ou tabulation")
	pathFlag(c.Flags(), &opts.sheetIn, "feuille", "la feuille d'évaluation Moodle ou le roster GitHub Classroom `FICHIER` (CSV) : chaque inscrit sans rendu est signalé (no-submission)")
	pathFlag(c.Flags(), &opts.sheetOut, "feuille-sortie", "réécrire la feuille d'évaluation dans `FICHIER`, note et commentaires remplis, à importer dans Moodle")
	c.SetFlagErrorFunc(dashPathError)
	return c
}

// runValider checks every output before reading, then reads, reports,
// and writes the worksheet.
func runValider(opts *validerOptions) error {
	a, cfg, paths := opts.app, opts.app.cfg, opts.paths
	// The worksheet is an input too (outside tester, stop 27).
	inputs := paths
	if opts.sheetIn != "" {
		inputs = append([]string{opts.sheetIn}, paths...)
	}
	// Once, before anything is read: no output on the key.
	var outs []onboarding.Output
	for _, o := range []onboarding.Output{{Path: opts.output, Setting: "--sortie"}, {Path: opts.sheetOut, Setting: "--feuille-sortie"}} {
		if o.Path != "" {
			outs = append(outs, o)
		}
	}
	if err := onboarding.CheckOutputs(cfg.Key, outs...); err != nil {
		return err
	}
	for _, o := range outs {
		if err := notState(o, cfg.StatePath); err != nil {
			return err
		}
	}
	fe, err := readFeuille(opts.sheetIn, opts.sheetOut, opts.output, inputs)
	if err != nil {
		return err
	}
	if opts.output != "" {
		if err := checkReportOutput(opts.output, "--sortie", inputs); err != nil {
			return err
		}
	}
	rules := acces.Rules{KeyName: cfg.Key.Name + ".pub", SessionDay: cfg.SessionDay, Today: cfg.Today, RequireSignature: opts.requireSig}
	run := submissions.Read(paths, submissions.Options{Rules: rules, Workers: opts.workers})
	if opts.report.strict {
		run.Strict()
	}
	// filled is written after the report, which may fail first.
	g, err := fe.grade(run, moodle.Grades{Valid: cfg.SheetValid, Invalid: cfg.SheetInvalid, ValidSet: cfg.SheetValidSet})
	if err != nil {
		return err
	}
	dir, _ := os.Getwd() // for the paths of sarif and github
	done, err := opts.write(checklist.FilesReport{Name: "pret valider", Results: g.results, All: opts.all, Version: version, Dir: dir,
		Strict: opts.report.strict, Comma: csvSeparators[opts.sep], Sources: paths, Generated: time.Now(), Learners: fe != nil || run.Learners()})
	if err == nil && g.filled != nil {
		sheet := func(w io.Writer) error {
			_, err := w.Write(g.filled)
			return err
		}
		if err = writeValiderFile(cfg.Key, opts.sheetOut, "--feuille-sortie", sheet, done); err == nil {
			fmt.Fprintf(a.io.Err, "pret: --feuille-sortie %s écrite ; %s\n", termtext.Escape(opts.sheetOut), g.written)
		}
	}
	switch {
	case err != nil:
		return err
	case g.results.Len() == 0:
		// A green run must mean "files were read and are valid".
		return refusedError("vérifiez le dossier ou l'archive donnés ; un fichier nommé sur la ligne de commande est lu quel que soit son nom",
			"aucun acces.md trouvé dans %s : pret cherche les fichiers dont le nom finit par acces.md ou accès.md (toute casse, copies « acces (1).md » et noms Moodle compris), dans les dossiers et les archives .zip", termtext.Escape(strings.Join(paths, ", ")))
	case g.err != nil:
		return g.err
	case run.Invalid() || g.missing > 0:
		return &silentExit{exitFailed}
	}
	return nil
}

// write prints the report, or writes it to --sortie whole; done says
// where it went, for a worksheet that fails after it.
func (opts *validerOptions) write(report checklist.FilesReport) (done string, err error) {
	a, format := opts.app, opts.report.format
	if opts.output == "" {
		report.Style = checklist.Style{Color: a.io.Color()}
		err = writeHuman(a.io, format, func(w io.Writer) error { return checklist.WriteFilesReport(w, format, report) })
		return "le rapport a été écrit sur la sortie standard", err
	}
	// Streamed into the temporary file: the report is never held whole.
	err = writeValiderFile(a.cfg.Key, opts.output, "--sortie", func(w io.Writer) error { return checklist.WriteFilesReport(w, format, report) }, "")
	return "le rapport a été écrit dans " + termtext.Escape(opts.output), err
}

// dashPathError: a path that starts with "-" (a folder "-Louise" that « pret
// valider * » was given) reads as options. The error names the path when it
// exists, and says how to write one either way: after "--", or as "./-Louise".
func dashPathError(c *cobra.Command, err error) error {
	e, ok := errors.AsType[*pflag.NotExistError](err)
	if !ok {
		return flagError(c, err)
	}
	arg := "--" + e.GetSpecifiedName()
	if s := e.GetSpecifiedShortnames(); s != "" {
		arg = "-" + s
	}
	hint := dashPathHint(arg)
	if _, serr := os.Lstat(arg); serr == nil {
		return usageError(hint, "%s est lu comme une option, pas comme un chemin", arg)
	}
	ferr := flagError(c, err)
	if oe, ok := errors.AsType[*cliError](ferr); ok {
		oe.Hint += " ; " + hint
	}
	return ferr
}

// writeValiderFile writes what write gives, whole or not at all; done is
// what was before.
func writeValiderFile(key keys.Store, path, flag string, write func(io.Writer) error, done string) error {
	shown, written := flag+" "+termtext.Escape(path), "rien n'a été écrit"
	if done != "" {
		written = "cette feuille n'a pas été écrite ; " + done
	}
	// Again: a link put there while the submissions were read.
	if err := linkOutput(path, flag); err != nil {
		if done == "" {
			return err
		}
		return refusedError("indiquez le chemin du fichier lui-même, pas un lien", "%s est un lien symbolique ; %s", shown, written)
	}
	put := func() error { return onboarding.Protected(key).WriteFrom(path, write, 0o644) }
	// Ctrl-C waits for the temporary file to be renamed or removed, but
	// not for the reader of a FIFO, which may never come.
	var err error
	if st, serr := os.Stat(path); serr != nil || st.Mode().IsRegular() {
		err = guarded(put)
	} else {
		err = put()
	}
	hint := "choisissez un dossier où vous pouvez écrire"
	switch {
	case err == nil:
		return nil
	case errors.Is(err, safefile.ErrIncomplete):
		// A device or a FIFO: part of the report may have gone out.
		return refusedError("vérifiez ce qui lit ou reçoit ce fichier, ou choisissez un fichier ordinaire",
			"%s", strings.TrimSuffix(shown+" : "+safefile.Reason(err)+" ; "+done, " ; "))
	case errors.Is(err, safefile.ErrNoReader):
		hint = "lancez d'abord le programme qui lit ce tube nommé, ou choisissez un fichier ordinaire"
	case safefile.DiskFull(err):
		hint = "libérez de la place sur ce disque, ou écrivez sur un autre disque"
	}
	return refusedError(hint, "%s : %s ; %s", shown, strings.TrimSuffix(safefile.Reason(err), " ; rien n'a été écrit"), written)
}

// linkOutput refuses (exit 2) a link to a file or to nothing; a link to
// a device or a FIFO (/dev/stdout, >(…)) is written into.
func linkOutput(path, flag string) error {
	lst, err := os.Lstat(path)
	if err != nil || !safefile.IsLink(path, lst) {
		return nil
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() && safefile.WritableKind(st) {
		return nil
	}
	return usageError("indiquez le chemin du fichier lui-même, ou un nom qui n'est pas un lien",
		"%s %s est un lien symbolique : pret n'écrit pas à travers un lien (il remplacerait ou créerait le fichier qu'il désigne) ; rien n'a été lu ni écrit", flag, termtext.Escape(path))
}

// feuille is what --feuille names, read: Moodle's grading worksheet, or
// GitHub Classroom's roster (read only); and where --feuille-sortie writes.
type feuille struct {
	in, out string
	sheet   *moodle.Sheet
	roster  *moodle.Roster
}

// readFeuille reads --feuille (the first of inputs) and checks
// --feuille-sortie as --sortie is; nil when there is no --feuille.
func readFeuille(in, out, reportOut string, inputs []string) (*feuille, error) {
	if in == "" {
		if out != "" {
			return nil, usageError("donnez aussi la feuille téléchargée depuis Moodle : --feuille feuille.csv --feuille-sortie remplie.csv", "--feuille-sortie sans --feuille : pret n'a pas de feuille à remplir")
		}
		return nil, nil
	}
	if err := mustExist(in); err != nil {
		return nil, err
	}
	if out != "" {
		if err := checkReportOutput(out, "--feuille-sortie", inputs); err != nil {
			return nil, err
		}
		if reportOut != "" && sameFile(out, reportOut) {
			return nil, usageError("donnez deux noms différents à --sortie et à --feuille-sortie", "--feuille-sortie %s est aussi --sortie ; rien n'a été lu ni écrit", termtext.Escape(out))
		}
	}
	sheet, roster, err := moodle.ReadAny(in)
	switch {
	case err != nil:
		return nil, sheetUsage(err)
	case roster != nil && out != "":
		// Classroom imports no grades: a roster written back goes nowhere.
		return nil, usageError("retirez --feuille-sortie ; pour garder les résultats, ajoutez --format csv --sortie resultats.csv",
			"--feuille-sortie avec le roster GitHub Classroom %s : pret lit un roster sans jamais l'écrire (Classroom n'importe pas de notes) ; rien n'a été écrit", termtext.Escape(in))
	case sheet != nil && out != "":
		if err := sheet.CheckWritable(); err != nil {
			return nil, sheetUsage(err)
		}
	}
	return &feuille{in: in, out: out, sheet: sheet, roster: roster}, nil
}

// graded is a run's results with --feuille beside.
type graded struct {
	results checklist.Results
	missing int    // learners of the worksheet or roster without a submission
	filled  []byte // the worksheet to write; nil none
	written string // what went into its grade column, for the organiser
	err     error  // why the worksheet is not written, said after the report
}

// grade matches the run to f (nil: the run as it is) and fills the
// worksheet with the grades g when --feuille-sortie asks for it.
func (f *feuille) grade(run *submissions.Run, g moodle.Grades) (graded, error) {
	switch {
	case f == nil:
		return graded{results: run}, nil
	case f.roster != nil:
		m := moodle.MatchRoster(run, f.roster, f.in)
		return graded{results: m, missing: m.Missing()}, nil
	}
	matched, err := moodle.Match(run, f.sheet, f.in)
	if err != nil {
		return graded{}, sheetUsage(err)
	}
	out := graded{results: matched, missing: matched.Missing()}
	if unread := matched.Unread(); f.out != "" && unread != "" {
		// Its learners would get the grades of no submission.
		out.err = refusedError("corrigez ce qui ne se lit pas (ou téléchargez à nouveau l'archive), puis relancez",
			"--feuille-sortie %s non écrite : %s n'a pas été lu (illisible ou trop grand), et ses apprenants seraient notés comme sans rendu", termtext.Escape(f.out), termtext.Escape(unread))
	} else if f.out != "" {
		fills := matched.Fills(g)
		out.filled, out.written = f.sheet.Write(fills), moodle.Written(fills)
	}
	return out, nil
}

// sameFile reports whether two paths name one file, existing or not.
func sameFile(a, b string) bool {
	if sa, err := os.Stat(a); err == nil {
		if sb, err := os.Stat(b); err == nil {
			return os.SameFile(sa, sb)
		}
	}
	aa, _ := filepath.Abs(a)
	ab, _ := filepath.Abs(b)
	return aa == ab
}

// notState refuses an output onto the learner's state file: the history
// of her declarations would go.
func notState(o onboarding.Output, state string) error {
	if !sameFile(o.Path, state) {
		return nil
	}
	return usageError("choisissez un autre chemin pour "+o.Setting, "%s (%s) est le fichier d'état de pret : l'écrire effacerait l'historique des déclarations ; rien n'a été écrit", o.Setting, termtext.Escape(o.Path))
}

// sheetUsage is exit 2 for a worksheet pret cannot use or match.
func sheetUsage(err error) error {
	if se, ok := errors.AsType[*moodle.Error](err); ok {
		return usageError(se.Hint, "%s ; rien n'a été écrit", se.Msg)
	}
	return usageError("vérifiez le fichier donné à --feuille", "feuille d'évaluation : %s", termtext.Escape(err.Error()))
}

// checkReportOutput refuses (exit 2) an output that is an input, a
// folder, in a missing folder, or a submission name in an input folder
// (runValider has refused one on the key).
func checkReportOutput(out, flag string, inputs []string) error {
	if err := linkOutput(out, flag); err != nil {
		return err
	}
	shown, what, example := flag+" "+termtext.Escape(out), "le rapport", "rapport.html"
	if flag == "--feuille-sortie" {
		what, example = "la feuille remplie", "remplie.csv"
	}
	outSt, outErr := os.Stat(out)
	if outErr == nil && outSt.IsDir() {
		return usageError("indiquez un nom de fichier, par exemple "+flag+" "+example, "%s est un dossier ; rien n'a été lu ni écrit", shown)
	} else if outErr == nil && !safefile.WritableKind(outSt) {
		return usageError("indiquez un fichier ordinaire, un périphérique comme /dev/null ou un tube nommé",
			"%s n'est ni un fichier ordinaire, ni un périphérique caractère, ni un tube nommé ; rien n'a été lu ni écrit", shown)
	}
	parent := safefile.Dir(out)
	if st, err := os.Stat(parent); err != nil {
		return usageError("créez d'abord le dossier, ou choisissez-en un qui existe", "%s : le dossier %s n'existe pas ; rien n'a été lu ni écrit", shown, termtext.Escape(parent))
	} else if !st.IsDir() {
		return usageError("choisissez un chemin dans un dossier", "%s : %s est un fichier, pas un dossier ; rien n'a été lu ni écrit", shown, termtext.Escape(parent))
	}
	realParent, err := filepath.EvalSymlinks(parent) // "link/.." as the system reads it
	if err == nil {
		realParent, _ = filepath.Abs(realParent)
	}
	name := filepath.Base(out)
	for _, in := range inputs {
		inSt, err := os.Stat(in)
		if err != nil {
			continue
		}
		if outErr == nil && os.SameFile(outSt, inSt) {
			return usageError("choisissez un autre nom pour "+what, "%s est aussi un fichier à valider : %s le remplacerait ; rien n'a été lu ni écrit", shown, what)
		}
		// A .pub is read beside a submission: an input too. So is any file
		// already there: every file of a learner's folder is read.
		input := submissions.IsSubmissionName(name) || submissions.IsArchiveName(name) || strings.HasSuffix(name, ".pub")
		if !inSt.IsDir() || realParent == "" || !input && outErr != nil {
			continue
		}
		abs, _ := filepath.Abs(in)
		realIn, err := filepath.EvalSymlinks(abs)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(realIn, realParent); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if !input {
			return usageError("choisissez pour "+what+" un nouveau fichier, ou un autre dossier",
				"%s est un fichier du dossier à valider %s, lu avec les rendus : %s le remplacerait ; rien n'a été lu ni écrit", shown, termtext.Escape(in), what)
		}
		return usageError("choisissez pour "+what+" un nom qui ne finit pas par acces.md, .pub ni .zip, ou un autre dossier",
			"%s est dans le dossier à valider %s et porte un nom de rendu : %s remplacerait ou deviendrait un rendu ; rien n'a été lu ni écrit", shown, termtext.Escape(in), what)
	}
	return nil
}
