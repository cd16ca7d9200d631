package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/checklist/moodle"
	"github.com/romeo-pret/pret/checklist/submissions"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/onboarding"
)

// validerOptions is what `pret valider` takes from its arguments, flags
// and configuration.
type validerOptions struct {
	Config          *Config
	Paths           []string // files, folders and .zip archives; empty is the current folder
	Report          reportFlags
	All, RequireSig bool
	Output          string // --sortie: the report goes to this file, whole
	Workers         int    // 0 is one per core, unless --paralleles was given
	WorkersSet      bool
	CSVSeparator    string
	Sheet, SheetOut string // --feuille, the Moodle grading worksheet, and where it is written back
}

// csvSeparators are named in words: a ";" typed unquoted would end the
// shell command. ";" by default: a French spreadsheet reads "," as the
// decimal mark, and opens a comma-separated file as one column.
var csvSeparators = map[string]rune{"point-virgule": ';', "virgule": ',', "tabulation": '\t'}

func newValiderCmd(a *app) *cobra.Command {
	opts := &validerOptions{}
	c := &cobra.Command{
		Use:     "valider [CHEMIN…] [--format FORMAT] [--strict] [--tous] [--sortie FICHIER] [--feuille FICHIER [--feuille-sortie FICHIER]]",
		Aliases: []string{"validate"},
		// The grades of --feuille-sortie, listed in this help in full.
		Annotations: map[string]string{settingAnnotation: "feuille.valide feuille.invalide"},
		Short:       "Organisateurs : valider des fichiers acces.md",
		Long: `Valide les acces.md reçus, tels que la plateforme les donne : fichiers,
dossiers et archives .zip (lues sur place, jamais extraites), dans
n'importe quel ordre. Dans un dossier ou une archive, un fichier est lu
quand son nom finit par acces.md ou accès.md (toute casse), copies
« acces (1).md » et noms Moodle « Nom Prénom_123_assignsubmission_file_acces.md »
compris ; un fichier nommé sur la ligne de commande est lu quel que soit
son nom. Sans CHEMIN : le dossier courant. Les liens symboliques trouvés
dans un dossier ne sont jamais suivis.

Chaque résultat nomme l'apprenant (nom Moodle, sinon le premier dossier).
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
la note (feuille.valide, 1 par défaut ; feuille.invalide, 0) et les
commentaires de feedback remplis, prête pour « Importer la feuille
d'évaluation ».

Formats : texte (seuls les fichiers à corriger, sauf --tous, puis un
résumé), json, junit, csv (une ligne par fichier), sarif (analyse de code
GitHub ou GitLab), github (annotations GitHub Actions), html (une page
autonome qui se trie et se filtre).

Code de sortie 0 si tout est valide, 1 si un fichier est invalide ou si
rien n'a été trouvé, 2 pour une erreur d'utilisation.`,
		Example: `  pret valider
  pret valider telechargement-moodle.zip
  pret valider rendus/ --format csv --sortie rendus.csv
  pret valider rendus/ --format html --sortie rapport.html
  pret valider rendus/ --format sarif --sortie pret.sarif
  pret valider rendus/kim/acces.md --strict
  pret valider rendus/ --exiger-signature
  pret valider rendus.zip --feuille feuille.csv --feuille-sortie remplie.csv`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Config, opts.Paths, opts.WorkersSet = a.cfg, args, cmd.Flags().Changed("paralleles")
			return runValider(opts, a.io)
		},
	}
	opts.Report.add(c, checklist.FileFormats...)
	c.Flags().BoolVar(&opts.All, "tous", false, "en texte, lister aussi les fichiers sans problème")
	pathFlag(c.Flags(), &opts.Output, "sortie", "écrire le rapport dans `FICHIER` (entier ou pas du tout) au lieu de la sortie standard")
	c.Flags().IntVar(&opts.Workers, "paralleles", 0, "`N` fichiers lus en parallèle, de 1 à quatre par cœur (défaut : un par cœur)")
	c.Flags().BoolVar(&opts.RequireSig, "exiger-signature", false, "un acces.md sans signature (« pret signer ») est invalide : code unsigned")
	choiceFlag(c.Flags(), &opts.CSVSeparator, "csv-separateur", "point-virgule", "séparateur", []string{"point-virgule", "virgule", "tabulation"},
		"en csv, le `SÉPARATEUR` des cellules : point-virgule (pour un tableur en français), virgule ou tabulation")
	pathFlag(c.Flags(), &opts.Sheet, "feuille", "la feuille d'évaluation Moodle `FICHIER` (CSV) : chaque inscrit sans rendu est signalé (no-submission)")
	pathFlag(c.Flags(), &opts.SheetOut, "feuille-sortie", "réécrire la feuille d'évaluation dans `FICHIER`, note et commentaires remplis, à importer dans Moodle")
	return c
}

// runValider validates the arguments and writes the report. Exit codes do
// not depend on the format: 0 all valid, 1 a file invalid or nothing
// found, 2 usage.
func runValider(opts *validerOptions, ios *iostreams) error {
	// More readers than this only costs memory (2,000,000,000 of them
	// exhausted it).
	maxWorkers := 4 * max(1, runtime.NumCPU())
	if opts.Workers < 0 || opts.Workers > maxWorkers || opts.WorkersSet && opts.Workers == 0 {
		return usageError(fmt.Sprintf("--paralleles entre 1 et %d (quatre par cœur)", maxWorkers), "--paralleles %d : hors des bornes", opts.Workers)
	}
	paths := opts.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	// A mistyped name is a usage error before anything is read; a name
	// that exists but cannot be read is a result of its own.
	for _, p := range paths {
		if err := mustExist(p); err != nil {
			return err
		}
	}
	sheet, err := readSheet(opts, paths)
	if err != nil {
		return err
	}
	cfg := opts.Config
	if opts.Output != "" {
		if err := checkReportOutput(cfg.Key, opts.Output, "--sortie", paths); err != nil {
			return err
		}
	}
	// A soft heap limit under the 64 MiB of organisateurs.md: the
	// collector works harder only when the heap nears it, and a run that
	// truly needs more still gets it.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(40 << 20))
	rules := acces.Rules{KeyName: cfg.Key.Name + ".pub", SessionDay: cfg.SessionDay, Today: cfg.Today, RequireSignature: opts.RequireSig}
	run := submissions.Read(paths, submissions.Options{Rules: rules, Workers: opts.Workers})
	if opts.Report.strict {
		run.Strict()
	}
	invalid := run.Invalid()
	var results checklist.Results = run
	var sheetErr error
	// filled is the worksheet to write, after the report: a report that
	// cannot be written leaves nothing written at all, and a worksheet
	// that cannot be written says the report was.
	var filled []byte
	if sheet != nil {
		matched, err := moodle.Match(run, sheet, opts.Sheet)
		if err != nil {
			return sheetUsage(err)
		}
		if unread := matched.Unread(); opts.SheetOut != "" && unread != "" {
			// The report still says what was read; the grades are not
			// written, as its learners would get those of no submission.
			sheetErr = refusedError("corrigez ce qui ne se lit pas (ou téléchargez à nouveau l'archive), puis relancez",
				"--feuille-sortie %s non écrite : %s est illisible, et ses apprenants seraient notés comme sans rendu", checklist.Escape(opts.SheetOut), checklist.Escape(unread))
		} else if opts.SheetOut != "" {
			filled = sheet.Write(matched.Fills(moodle.Grades{Valid: cfg.SheetValid, Invalid: cfg.SheetInvalid}))
		}
		results, invalid = matched, invalid || matched.Missing() > 0
	}
	dir, _ := os.Getwd() // for the paths of sarif and github
	report := checklist.FilesReport{Name: "pret valider", Results: results, All: opts.All, Version: version, Dir: dir, Strict: opts.Report.strict,
		Comma: csvSeparators[opts.CSVSeparator], Sources: paths, Generated: time.Now()}
	format, done := opts.Report.format, "le rapport a été écrit sur la sortie standard"
	if opts.Output == "" {
		report.Style = style(ios)
		err = writeHuman(ios, format, func(w io.Writer) error { return checklist.WriteFilesReport(w, format, report) })
	} else {
		var buf bytes.Buffer
		if err = checklist.WriteFilesReport(&buf, format, report); err == nil {
			err = writeValiderFile(cfg, opts.Output, "--sortie", buf.Bytes(), "")
		}
		done = "le rapport a été écrit dans " + checklist.Escape(opts.Output)
	}
	if err == nil && filled != nil {
		err = writeValiderFile(cfg, opts.SheetOut, "--feuille-sortie", filled, done)
	}
	switch {
	case err != nil:
		return err
	case results.Len() == 0:
		// A green run must mean "files were read and are valid".
		return refusedError("vérifiez le dossier ou l'archive donnés ; un fichier nommé sur la ligne de commande est lu quel que soit son nom",
			"aucun acces.md trouvé dans %s : pret cherche les fichiers dont le nom finit par acces.md ou accès.md (toute casse, copies « acces (1).md » et noms Moodle compris), dans les dossiers et les archives .zip", checklist.Escape(strings.Join(paths, ", ")))
	case sheetErr != nil:
		return sheetErr
	case invalid:
		return &silentExit{exitFailed}
	}
	return nil
}

// writeValiderFile writes a report or the filled worksheet whole or not
// at all, never onto the key nor through a link; flag names the option
// in the message, done what was written before ("" for nothing).
func writeValiderFile(cfg *Config, path, flag string, data []byte, done string) error {
	shown := flag + " " + checklist.Escape(path)
	written := "rien n'a été écrit"
	if done != "" {
		written = "cette feuille n'a pas été écrite ; " + done
	}
	// Checked first by checkReportOutput, again here: a link put there
	// while the submissions were read is refused all the same.
	if err := linkOutput(path, flag); err != nil {
		if done == "" {
			return err
		}
		return refusedError("indiquez le chemin du fichier lui-même, pas un lien", "%s est un lien symbolique ; %s", shown, written)
	}
	err := onboarding.Protected(cfg.Key).WriteReplace(path, data, 0o644)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, safefile.ErrIncomplete):
		// A device or a FIFO: part of the report may have gone out.
		msg := shown + " : " + safefile.Reason(err)
		if done != "" {
			msg += " ; " + done
		}
		return refusedError("vérifiez ce qui lit ou reçoit ce fichier, ou choisissez un fichier ordinaire", "%s", msg)
	}
	hint := "choisissez un dossier où vous pouvez écrire"
	if errors.Is(err, safefile.ErrNoReader) {
		hint = "lancez d'abord le programme qui lit ce tube nommé, ou choisissez un fichier ordinaire"
	}
	return refusedError(hint, "%s : %s ; %s", shown, strings.TrimSuffix(safefile.Reason(err), " ; rien n'a été écrit"), written)
}

// linkOutput refuses (exit 2) an output path that is a symbolic link to
// a file or to nothing: writing would replace the file it names, or
// create one wherever it points (a link left in a shared folder), never
// the name the person gave. A link to a character device or a FIFO
// (/dev/stdout, a shell's >(…)) is written into, never replaced, and
// stays allowed.
func linkOutput(path, flag string) error {
	lst, err := os.Lstat(path)
	if err != nil || !safefile.IsLink(path, lst) {
		return nil
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() && safefile.WritableKind(st) {
		return nil
	}
	return usageError("indiquez le chemin du fichier lui-même, ou un nom qui n'est pas un lien",
		"%s %s est un lien symbolique : pret n'écrit pas à travers un lien (il remplacerait ou créerait le fichier qu'il désigne) ; rien n'a été lu ni écrit", flag, checklist.Escape(path))
}

// readSheet reads --feuille before any submission is read, and checks
// --feuille-sortie as --sortie is checked: a worksheet that pret cannot
// use, or an output that would destroy an input, is a usage error.
func readSheet(opts *validerOptions, paths []string) (*moodle.Sheet, error) {
	if opts.Sheet == "" {
		if opts.SheetOut != "" {
			return nil, usageError("donnez aussi la feuille téléchargée depuis Moodle : --feuille feuille.csv --feuille-sortie remplie.csv", "--feuille-sortie sans --feuille : pret n'a pas de feuille à remplir")
		}
		return nil, nil
	}
	if err := mustExist(opts.Sheet); err != nil {
		return nil, err
	}
	if out := opts.SheetOut; out != "" {
		if err := checkReportOutput(opts.Config.Key, out, "--feuille-sortie", append([]string{opts.Sheet}, paths...)); err != nil {
			return nil, err
		}
		if opts.Output != "" && sameFile(out, opts.Output) {
			return nil, usageError("donnez deux noms différents à --sortie et à --feuille-sortie", "--feuille-sortie %s est aussi --sortie ; rien n'a été lu ni écrit", checklist.Escape(out))
		}
	}
	sheet, err := moodle.ReadFile(opts.Sheet)
	if err == nil && opts.SheetOut != "" {
		err = sheet.CheckWritable()
	}
	if err != nil {
		return nil, sheetUsage(err)
	}
	return sheet, nil
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

// sheetUsage is a worksheet pret cannot use, or one that does not match
// the submissions: exit 2, as a bad argument, before anything is written.
func sheetUsage(err error) error {
	var se *moodle.Error
	if errors.As(err, &se) {
		return usageError(se.Hint, "%s ; rien n'a été écrit", se.Msg)
	}
	return usageError("vérifiez le fichier donné à --feuille", "feuille d'évaluation : %s", checklist.Escape(err.Error()))
}

// checkReportOutput refuses (exit 2, nothing read or written) a --sortie
// or --feuille-sortie (flag) that would destroy or pollute what is being
// validated: the key, one of the inputs (after links), a submission or archive
// name inside an input folder (the report would replace a learner's
// file, or be read as one next time), a folder, or a missing folder.
func checkReportOutput(key keys.Store, out, flag string, inputs []string) error {
	if err := checkOutput(key, out, flag); err != nil {
		return err
	}
	shown := flag + " " + checklist.Escape(out)
	what, example := "le rapport", "rapport.html"
	if flag == "--feuille-sortie" {
		what, example = "la feuille remplie", "remplie.csv"
	}
	if err := linkOutput(out, flag); err != nil {
		return err
	}
	if st, err := os.Stat(out); err == nil && st.IsDir() {
		return usageError("indiquez un nom de fichier, par exemple "+flag+" "+example, "%s est un dossier ; rien n'a été lu ni écrit", shown)
	} else if err == nil && !safefile.WritableKind(st) {
		return usageError("indiquez un fichier ordinaire, un périphérique comme /dev/null ou un tube nommé",
			"%s n'est ni un fichier ordinaire, ni un périphérique caractère, ni un tube nommé ; rien n'a été lu ni écrit", shown)
	}
	parent, err := filepath.Abs(filepath.Dir(out))
	if err == nil {
		if st, err := os.Stat(parent); err != nil || !st.IsDir() {
			return usageError("créez d'abord le dossier, ou choisissez-en un qui existe", "%s : le dossier %s n'existe pas ; rien n'a été lu ni écrit", shown, checklist.Escape(filepath.Dir(out)))
		}
	}
	outSt, outErr := os.Stat(out)
	realParent, _ := filepath.EvalSymlinks(parent)
	name := filepath.Base(out)
	for _, in := range inputs {
		inSt, err := os.Stat(in)
		if err != nil {
			continue
		}
		if outErr == nil && os.SameFile(outSt, inSt) {
			return usageError("choisissez un autre nom pour "+what, "%s est aussi un fichier à valider : %s le remplacerait ; rien n'a été lu ni écrit", shown, what)
		}
		if !inSt.IsDir() || realParent == "" || !(submissions.IsSubmissionName(name) || submissions.IsArchiveName(name)) {
			continue
		}
		abs, _ := filepath.Abs(in)
		realIn, err := filepath.EvalSymlinks(abs)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(realIn, realParent); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return usageError("choisissez pour "+what+" un nom qui ne finit pas par acces.md ni .zip, ou un autre dossier",
				"%s est dans le dossier à valider %s et porte un nom de rendu : %s remplacerait ou deviendrait un rendu ; rien n'a été lu ni écrit", shown, checklist.Escape(in), what)
		}
	}
	return nil
}
