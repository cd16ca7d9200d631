package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/adrg/xdg"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys"
)

// Config is everything the commands need from flags, environment and file.
// Packages below cmd get pieces of it as plain values, never viper.
type Config struct {
	SessionTitle string
	SessionDay   time.Time // midnight UTC standing for the civil day in Europe/Paris
	SessionStart string
	SessionEnd   string
	Key          keys.Store
	AccessFile   string
	AccessModel  string
	Channel      string
	Partition    string
	Account      string
	StatePath    string
	// SheetValid and SheetInvalid are the grades --feuille-sortie writes.
	SheetValid, SheetInvalid string
	// Today is the civil day of "now"; PRET_AUJOURDHUI overrides it so that
	// tests of date rules do not depend on the day they run.
	Today time.Time
}

// configKey is one setting: its place in the config file, its default,
// and what its flag says. The flag is the key with "-" for ".", the
// variable PRET_ and the key in capitals with "_" for ".".
type configKey struct {
	key, def, usage string
	check           func(string) error // what the flag refuses
}

// configKeys are all the settings; each gets a flag bound to viper, so
// that flag > PRET_ variable > file > default holds for every one.
var configKeys = []configKey{
	{"seance.titre", "Utiliser ROMEO2025 et ses GPU pour le HPC et l'IA", "`TITRE` de la séance", checkText},
	{"seance.date", "2026-11-05", "`DATE` de la séance, AAAA-MM-JJ (heure de Paris)", checkDay},
	{"seance.debut", "09:30", "`HEURE` du début de la séance, HH:MM", checkHour},
	{"seance.fin", "12:00", "`HEURE` de la fin de la séance, HH:MM", checkHour},
	{"cle.dossier", "~/.ssh", "`DOSSIER` de la clé", checkPath},
	{"cle.nom", "id_ed25519_romeo", "`NOM` du fichier de la clé privée (la clé publique est NOM.pub)", checkKeyName},
	{"cle.commentaire", "seance-novembre", "`COMMENTAIRE` d'une clé créée", checkText},
	{"acces.fichier", "acces.md", "`FICHIER` qu'écrit « pret acces »", checkPath},
	{"acces.modele", "", "`FICHIER` modèle d'acces.md (vide : celui fourni avec pret)", checkText},
	{"organisateurs.canal", "", "`CANAL` par lequel demander le compte, tel que les organisateurs l'ont dit", checkText},
	{"organisateurs.partition", "", "`PARTITION` Slurm donnée par les organisateurs", checkText},
	{"organisateurs.compte", "", "`COMPTE` Slurm donné par les organisateurs", checkText},
	{"feuille.valide", "1", "`NOTE` d'un rendu valide dans --feuille-sortie (pret valider)", checkText},
	{"feuille.invalide", "0", "`NOTE` d'un rendu invalide ou absent dans --feuille-sortie, 0 par défaut (vide : pas de note)", checkText},
}

func flagOf(key string) string { return strings.ReplaceAll(key, ".", "-") }

func envOf(key string) string {
	return "PRET_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// bindConfigFlags gives every config key its flag on the root command
// (so every command takes it) and binds it to a's viper.
func (a *app) bindConfigFlags(root *cobra.Command) {
	for _, k := range configKeys {
		v := new(string)
		*v = k.def
		root.PersistentFlags().Var(&checkedValue{p: v, check: k.check, refused: "\x1b[31m"}, flagOf(k.key), k.usage+" ; "+envOf(k.key))
		_ = root.PersistentFlags().SetAnnotation(flagOf(k.key), settingAnnotation, []string{k.key})
		// BindPFlag fails only for a nil flag.
		_ = a.v.BindPFlag(k.key, root.PersistentFlags().Lookup(flagOf(k.key)))
	}
}

// loadConfig applies flag > PRET_… environment > config file > default,
// on v, the one viper instance the flags are bound to.
func loadConfig(v *viper.Viper, configFlag string) (*Config, []string, error) {
	for _, k := range configKeys {
		v.SetDefault(k.key, k.def)
	}
	v.SetEnvPrefix("PRET")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()

	path := configFlag
	if path == "" {
		candidate := filepath.Join(xdg.ConfigHome, "pret", "config.yaml")
		if _, err := os.Lstat(candidate); err == nil {
			path = candidate
		}
	} else if _, err := os.Lstat(path); err != nil {
		return nil, nil, usageError("vérifiez le chemin donné à --config", "fichier de configuration introuvable : %s", checklist.Escape(path))
	}
	var warnings []string
	if path != "" {
		// The file is read once, by the bounded reader (a FIFO, a device
		// or 3 GB never reach the YAML parser), and walked by
		// parseConfigFile; viper gets only the known settings.
		data, err := safefile.Read(path, safefile.Config, safefile.FollowLink)
		if err != nil {
			return nil, nil, usageError("donnez un fichier de configuration ordinaire, de 1 Mio au plus", "configuration illisible : %s", err)
		}
		// A key pasted in the config would be quoted by the warnings and
		// errors below: such a file is not read at all.
		if _, leaks := checklist.Guard(data); len(leaks) > 0 {
			return nil, nil, usageError("retirez la clé privée du fichier, et considérez-la comme compromise", "configuration %s non lue : %s", checklist.Escape(path), leaks[0].Message)
		}
		known := make([]string, len(configKeys))
		for i, k := range configKeys {
			known[i] = k.key
		}
		cf, err := parseConfigFile(data, known)
		var se *settingError
		if errors.As(err, &se) && se.key == "seance.date" {
			return nil, nil, usageError("écrivez la date de la séance sous la forme AAAA-MM-JJ (seance.date, PRET_SEANCE_DATE)", "date de séance invalide : %v (%s)", err, checklist.Escape(path))
		}
		if err != nil {
			return nil, nil, usageError("corrigez le fichier (le modèle est dans le README)", "configuration illisible (%s) : %v", checklist.Escape(path), err)
		}
		// viper gets the known settings as they were read, never the
		// unknown keys, so it never decodes them.
		if err := v.MergeConfigMap(cf.tree()); err != nil {
			return nil, nil, usageError("corrigez le fichier (le modèle est dans le README)", "configuration illisible (%s)", checklist.Escape(path))
		}
		if w := cf.unknownWarning(path); w != "" {
			warnings = append(warnings, w)
		}
	}
	// Every setting's final value, whichever source gave it: an empty
	// cle.dossier would put the key in the current folder.
	for _, k := range configKeys {
		if err := checkSetting(k.key, configValue(v, k.key)); err != nil {
			return nil, nil, usageError(fmt.Sprintf("corrigez %s (option --%s, variable %s ou fichier de configuration)", k.key, flagOf(k.key), envOf(k.key)), "%v", err)
		}
	}

	c := &Config{
		SessionTitle: v.GetString("seance.titre"),
		SessionStart: v.GetString("seance.debut"),
		SessionEnd:   v.GetString("seance.fin"),
		AccessFile:   v.GetString("acces.fichier"),
		AccessModel:  v.GetString("acces.modele"),
		Channel:      v.GetString("organisateurs.canal"),
		Partition:    v.GetString("organisateurs.partition"),
		Account:      v.GetString("organisateurs.compte"),
		StatePath:    filepath.Join(xdg.StateHome, "pret", "etat.yaml"),
		SheetValid:   configValue(v, "feuille.valide").(string),
		SheetInvalid: configValue(v, "feuille.invalide").(string),
	}
	// Both are HH:MM (checked above), so they compare as text.
	if st, en := strings.TrimSpace(c.SessionStart), strings.TrimSpace(c.SessionEnd); len(st) == 5 && len(en) == 5 && en <= st {
		return nil, nil, usageError("seance.fin vient après seance.debut, le même jour", "seance.fin (%s) n'est pas après seance.debut (%s)", en, st)
	}
	day, err := configDay(v.Get("seance.date"))
	if err != nil {
		return nil, nil, usageError("écrivez la date de la séance sous la forme AAAA-MM-JJ (seance.date, PRET_SEANCE_DATE)", "date de séance invalide : %v", err)
	}
	c.SessionDay = day
	dir, err := expandHome(v.GetString("cle.dossier"))
	if err != nil {
		return nil, nil, err
	}
	name := v.GetString("cle.nom")
	if name == "" || strings.ContainsRune(name, '/') || name == "." || name == ".." {
		return nil, nil, usageError("cle.nom est un nom de fichier seul, par exemple id_ed25519_romeo", "nom de clé invalide : %q", name)
	}
	if err := keys.CheckName(name); err != nil {
		return nil, nil, usageError("cle.nom est le nom du fichier de la clé privée, par exemple id_ed25519_romeo", "cle.nom : %v", err)
	}
	c.Key = keys.Store{Dir: dir, Name: name, Comment: v.GetString("cle.commentaire"), Files: keyFiles}
	if c.AccessModel != "" {
		if c.AccessModel, err = expandHome(c.AccessModel); err != nil {
			return nil, nil, err
		}
	}
	if c.AccessFile, err = expandHome(c.AccessFile); err != nil {
		return nil, nil, err
	}
	c.Today, err = today()
	if err != nil {
		return nil, nil, err
	}
	return c, warnings, nil
}

// emptyEnvKeys are the settings whose empty PRET_ variable is a value:
// an empty grade means "no grade" (Moodle's import skips it), written as
// --feuille-valide "", valide: "" or PRET_FEUILLE_VALIDE= alike. For the
// other keys an empty variable stays unset, as viper has it: an empty
// PRET_SEANCE_DATE= or PRET_CLE_DOSSIER= left in a shell is no reason to
// refuse to run, nor to put the key in the current folder.
var emptyEnvKeys = map[string]bool{"feuille.valide": true, "feuille.invalide": true}

// configValue is key's value by flag > PRET_ variable > file > default;
// for emptyEnvKeys an empty variable counts as set.
func configValue(v *viper.Viper, key string) any {
	if emptyEnvKeys[key] {
		// viper reads the environment when asked, so the switch holds
		// for this one lookup.
		v.AllowEmptyEnv(true)
		defer v.AllowEmptyEnv(false)
		return v.GetString(key)
	}
	return v.Get(key)
}

// configDay reads seance.date, from YAML (a date or a string) or from
// PRET_SEANCE_DATE, and says in French what is wrong with it: never the
// parser's English nor Go's "<nil>".
func configDay(raw any) (time.Time, error) {
	var d time.Time
	switch x := raw.(type) {
	case time.Time:
		d = time.Date(x.Year(), x.Month(), x.Day(), 0, 0, 0, 0, time.UTC)
	case string:
		s := strings.TrimSpace(x)
		if s == "" {
			return time.Time{}, errors.New("elle est vide")
		}
		t, err := time.Parse("2006-01-02", s)
		if err != nil {
			if len(s) == 10 && s[4] == '-' && s[7] == '-' {
				return time.Time{}, fmt.Errorf("« %s » n'est pas un jour du calendrier", checklist.Escape(s))
			}
			return time.Time{}, fmt.Errorf("« %s » n'est pas de la forme AAAA-MM-JJ", checklist.Escape(s))
		}
		d = t
	case nil:
		return time.Time{}, errors.New("elle est vide")
	default:
		return time.Time{}, fmt.Errorf("c'est une valeur de type %T, pas une date", raw)
	}
	if !dates.InYears(d.Year()) {
		// Far dates overflow the count of days left and mean a typo.
		return time.Time{}, fmt.Errorf("%s est hors des années %d à %d", d.Format("2006-01-02"), dates.MinYear, dates.MaxYear)
	}
	return d, nil
}

func today() (time.Time, error) {
	if s := os.Getenv("PRET_AUJOURDHUI"); s != "" {
		d, err := time.Parse("2006-01-02", s)
		if err != nil {
			return time.Time{}, usageError("PRET_AUJOURDHUI sert aux tests : AAAA-MM-JJ", "PRET_AUJOURDHUI invalide : %q", s)
		}
		return d, nil
	}
	now := time.Now() // the learner's own calendar day
	return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC), nil
}

func expandHome(p string) (string, error) {
	sep := string(filepath.Separator)
	if p == "~" || strings.HasPrefix(p, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			// Go's reason is English ("$HOME is not defined"): said here.
			v := "HOME"
			if runtime.GOOS == "windows" {
				v = "USERPROFILE"
			}
			return "", usageError("définissez "+v, "dossier personnel inconnu : la variable %s est vide ou absente", v)
		}
		p = home + sep + p[1:]
	}
	if strings.HasPrefix(p, "$HOME/") || strings.HasPrefix(p, "${HOME}/") {
		home, _ := os.UserHomeDir()
		p = home + sep + p[strings.Index(p, "/"):]
	}
	if !filepath.IsAbs(p) {
		wd, err := os.Getwd()
		if err != nil {
			return "", usageError("", "chemin invalide : %q", p)
		}
		p = wd + sep + p
	}
	// Cleaning "a/link/../b" into "a/b" would name another file than the
	// system opens (the link's parent, not a's): with "..", the path is
	// kept as written, and the key guard resolves it as the system does.
	if !hasDotDot(p) {
		p = filepath.Clean(p)
	}
	return p, nil
}

func hasDotDot(p string) bool {
	for _, e := range strings.FieldsFunc(p, func(r rune) bool { return os.IsPathSeparator(uint8(r)) }) {
		if e == ".." {
			return true
		}
	}
	return false
}

// mustExist is exit 2 for a path named on the command line that is absent.
func mustExist(path string) error {
	// "fichier/x" under a regular file does not exist either (ENOTDIR).
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return usageError("vérifiez le chemin", "introuvable : %s", checklist.Escape(path))
	}
	return nil
}
