package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/adrg/xdg"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/keys"
)

// Config is what the commands need from flags, environment and file;
// packages below cmd get plain values, never viper.
type Config struct {
	SessionTitle, SessionStart, SessionEnd string
	SessionDay                             time.Time // midnight UTC standing for the civil day in Europe/Paris
	Key                                    keys.Store
	AccessFile, AccessModel, StatePath     string
	Channel, Partition, Account            string
	SheetValid, SheetInvalid               string    // the grades --feuille-sortie writes
	SheetValidSet                          bool      // feuille.valide given: else a row's « Note maximale »
	Today                                  time.Time // the civil day of now, or PRET_AUJOURDHUI (tests)
}

// configKey is one setting: file key (flag: "." as "-"; variable: PRET_
// and capitals), default, usage, the form refusals name, and its check.
type configKey struct {
	key, def, usage, form string
	check                 func(string) error
}

var configKeys = []configKey{
	{"seance.titre", "Utiliser ROMEO2025 et ses GPU pour le HPC et l'IA", "`TITRE` de la séance", "un texte, le titre de la séance", func(s string) error { return cmp.Or(checkRequired(s), checkWords(s)) }},
	{"seance.date", "2026-11-05", "`DATE` de la séance, AAAA-MM-JJ (heure de Paris)", "une date AAAA-MM-JJ entre 2000 et 2100, par exemple 2026-11-05", func(s string) error { _, err := sessionDay(s); return err }},
	{"seance.debut", "09:30", "`HEURE` du début de la séance, HH:MM", `une heure HH:MM, par exemple "09:30"`, checkHour},
	{"seance.fin", "12:00", "`HEURE` de la fin de la séance, HH:MM", `une heure HH:MM, par exemple "09:30"`, checkHour},
	{"cle.dossier", "~/.ssh", "`DOSSIER` de la clé", "un dossier, par exemple ~/.ssh", checkRequired},
	{"cle.nom", "id_ed25519_romeo", "`NOM` du fichier de la clé privée (la clé publique est NOM.pub)", "un nom de fichier seul, par exemple id_ed25519_romeo", checkKeyName},
	{"cle.commentaire", "seance-novembre", "`COMMENTAIRE` d'une clé créée", "un texte d'une ligne, par exemple seance-novembre", keys.CheckComment},
	{"acces.fichier", "acces.md", "`FICHIER` qu'écrit « pret acces »", "un chemin de fichier, par exemple acces.md", checkRequired},
	{"acces.modele", "", "`FICHIER` modèle d'acces.md (vide : celui fourni avec pret)", `un chemin de fichier modèle, ou "" pour le modèle intégré`, checkText},
	{"organisateurs.canal", "", "`CANAL` par lequel demander le compte, tel que les organisateurs l'ont dit", "un texte", checkWords},
	{"organisateurs.partition", "", "`PARTITION` Slurm donnée par les organisateurs", "un texte", checkWords},
	{"organisateurs.compte", "", "`COMPTE` Slurm donné par les organisateurs", "un texte", checkWords},
	{"feuille.valide", "1", "`NOTE` d'un rendu valide dans --feuille-sortie (pret valider) ; sans elle, la « Note maximale » de la ligne, sinon 1", `une note entre guillemets, par exemple "1", ou "" pour ne pas noter`, checkWords},
	{"feuille.invalide", "0", "`NOTE` d'un rendu invalide ou absent dans --feuille-sortie, 0 par défaut (vide : pas de note)", `une note entre guillemets, par exemple "1", ou "" pour ne pas noter`, checkWords},
}

func flagOf(key string) string { return strings.ReplaceAll(key, ".", "-") }

func envOf(key string) string {
	return "PRET_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

func lookupKey(key string) (configKey, bool) {
	i := slices.IndexFunc(configKeys, func(k configKey) bool { return k.key == key })
	return configKeys[max(i, 0)], i >= 0
}

// bindConfigFlags gives every key its flag on root, bound to a.v.
func (a *app) bindConfigFlags(root *cobra.Command) {
	fs := root.PersistentFlags()
	for _, k := range configKeys {
		v := k.def
		fs.Var(&checkedValue{p: &v, check: k.check}, flagOf(k.key), k.usage+" ; "+envOf(k.key))
		_ = fs.SetAnnotation(flagOf(k.key), settingAnnotation, []string{k.key})
		_ = a.v.BindPFlag(k.key, fs.Lookup(flagOf(k.key))) // fails only for a nil flag
	}
	a.v.SetEnvPrefix("PRET")
	a.v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	a.v.AutomaticEnv()
}

// loadConfig applies flag > PRET_… variable > file > default on v.
func loadConfig(v *viper.Viper, configFlag string) (c *Config, warning string, err error) {
	path := configFlag
	if path == "" {
		if p := filepath.Join(xdg.ConfigHome, "pret", "config.yaml"); fileExists(p) {
			path = p
		}
	} else if !fileExists(path) {
		return nil, "", usageError("vérifiez le chemin donné à --config", "fichier de configuration introuvable : %s", termtext.Escape(path))
	}
	if path != "" {
		if warning, err = readConfigFile(v, path); err != nil {
			return nil, "", err
		}
	}
	// An empty cle.dossier, say, would put the key in the current folder.
	for _, k := range configKeys {
		if err := checkSetting(k.key, configValue(v, k.key)); err != nil {
			return nil, "", usageError(fmt.Sprintf("corrigez %s (option --%s, variable %s ou fichier de configuration)", k.key, flagOf(k.key), envOf(k.key)), "%v", err)
		}
	}
	c = &Config{
		SessionTitle: v.GetString("seance.titre"),
		SessionStart: strings.TrimSpace(v.GetString("seance.debut")),
		SessionEnd:   strings.TrimSpace(v.GetString("seance.fin")),
		AccessFile:   v.GetString("acces.fichier"),
		AccessModel:  v.GetString("acces.modele"),
		Channel:      v.GetString("organisateurs.canal"),
		Partition:    v.GetString("organisateurs.partition"),
		Account:      v.GetString("organisateurs.compte"),
		StatePath:    filepath.Join(xdg.StateHome, "pret", "etat.yaml"),
		SheetValid:   configValue(v, "feuille.valide"),
		SheetInvalid: configValue(v, "feuille.invalide"),
		// An empty PRET_FEUILLE_VALIDE= is a value given (configValue).
		SheetValidSet: func() bool { v.AllowEmptyEnv(true); defer v.AllowEmptyEnv(false); return v.IsSet("feuille.valide") }(),
		Key: keys.Store{Dir: v.GetString("cle.dossier"), Name: v.GetString("cle.nom"), Comment: v.GetString("cle.commentaire"), Files: keyFiles,
			SSHDir: filepath.Join(xdg.Home, ".ssh")},
	}
	// Both are HH:MM (checked above), so they compare as text.
	if len(c.SessionStart) == 5 && len(c.SessionEnd) == 5 && c.SessionEnd <= c.SessionStart {
		return nil, "", usageError("seance.fin vient après seance.debut, le même jour", "seance.fin (%s) n'est pas après seance.debut (%s)", c.SessionEnd, c.SessionStart)
	}
	c.SessionDay, _ = sessionDay(v.GetString("seance.date"))
	for _, p := range []*string{&c.Key.Dir, &c.AccessFile, &c.AccessModel} {
		if *p != "" {
			if *p, err = expandHome(*p); err != nil {
				return nil, "", err
			}
		}
	}
	if c.Today, err = today(); err != nil {
		return nil, "", err
	}
	return c, warning, nil
}

func fileExists(p string) bool { _, err := os.Lstat(p); return err == nil }

// readConfigFile merges the file into v, by the bounded reader, and
// returns the warning for its unknown keys.
func readConfigFile(v *viper.Viper, path string) (string, error) {
	data, err := safefile.Read(path, safefile.Config, safefile.FollowLink)
	if err != nil {
		return "", usageError("donnez un fichier de configuration ordinaire, de 1 Mio au plus", "configuration illisible : %s", err)
	}
	// A key pasted in the file would be quoted by the messages below.
	if _, leaks := checklist.Guard(data); len(leaks) > 0 {
		return "", usageError("retirez la clé privée du fichier, et considérez-la comme compromise", "configuration %s non lue : %s", termtext.Escape(path), leaks[0].Message)
	}
	tree, unknown, err := parseConfigFile(data)
	if err != nil {
		return "", usageError("corrigez le fichier (le modèle est dans le README)", "configuration illisible (%s) : %v", termtext.Escape(path), err)
	}
	_ = v.MergeConfigMap(tree) // never fails on a map
	return unknownWarning(unknown, path), nil
}

// parseConfigFile walks yaml.Node, for the line of each refusal and keys
// compared without case; merge keys are refused, so no alias makes the
// walk expand, and so is a second document. viper then resolves flag >
// environment > file > default on the values found. The file is not handed
// to viper's ReadConfig: it decodes with yaml.v3 into a map, whose check
// for repeated keys is quadratic (20,000 keys: 4.7 s against 0.15 s here;
// the 200,000 of a 1 MiB file: over 13 minutes), and it keeps no line, takes
// merge keys and drops a second document silently (cli.md refuses them).
func parseConfigFile(data []byte) (tree map[string]any, unknown []string, err error) {
	var doc, next yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err = dec.Decode(&doc); err == nil {
		if err = dec.Decode(&next); err == nil {
			return nil, nil, fmt.Errorf("ligne %d : le fichier contient un second document YAML (après --- ou ...) ; pret n'en lit qu'un : réunissez les réglages en un seul", next.Line)
		}
	}
	if err != io.EOF {
		return nil, nil, errors.New("YAML invalide : " + checklist.YAMLError(err))
	}
	tree = map[string]any{}
	if len(doc.Content) == 0 || doc.Content[0].Tag == "!!null" {
		return tree, nil, nil // an empty file sets nothing
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("ligne %d : le fichier doit être une suite de réglages « clé: valeur » (voir le modèle du README)", root.Line)
	}
	err = eachPair(root, func(k, v *yaml.Node) error {
		sec := strings.ToLower(k.Value)
		i := slices.IndexFunc(configKeys, func(c configKey) bool { return strings.HasPrefix(c.key, sec+".") })
		if i < 0 {
			unknown = append(unknown, k.Value)
			return nil
		}
		first := strings.TrimPrefix(configKeys[i].key, sec+".")
		if tree[sec] != nil {
			return fmt.Errorf("ligne %d : la section %s est donnée deux fois", k.Line, sec)
		}
		values := map[string]any{}
		tree[sec] = values
		if v = deref(v); v.Tag == "!!null" {
			return nil // "cle:" with nothing under it: nothing set
		}
		if v.Kind != yaml.MappingNode {
			return fmt.Errorf("ligne %d : %s est une section ; attendu des réglages en dessous, par exemple « %s: » puis « %s: … » en retrait", v.Line, sec, sec, first)
		}
		return eachPair(v, func(k, v *yaml.Node) error {
			name := strings.ToLower(k.Value)
			key, ok := lookupKey(sec + "." + name)
			switch v = deref(v); {
			case !ok:
				unknown = append(unknown, sec+"."+k.Value)
			case values[name] != nil:
				return fmt.Errorf("ligne %d : %s est donné deux fois", k.Line, key.key)
			case v.Kind != yaml.ScalarNode || v.Tag != "!!str" && !(v.Tag == "!!timestamp" && key.key == "seance.date"):
				return fmt.Errorf("ligne %d : %s vaut %s ; attendu %s", v.Line, key.key, yamlKind(v), key.form)
			default:
				values[name] = v.Value
			}
			return nil
		})
	})
	return tree, unknown, err
}

// eachPair calls f for each key and value of a mapping.
func eachPair(m *yaml.Node, f func(k, v *yaml.Node) error) error {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Kind != yaml.ScalarNode {
			return fmt.Errorf("ligne %d : une clé de configuration est un nom simple", k.Line)
		}
		if k.Tag == "!!merge" {
			return fmt.Errorf("ligne %d : la fusion YAML « << » n'est pas lue : écrivez les réglages eux-mêmes", k.Line)
		}
		if err := f(k, m.Content[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// deref follows an alias (the parser refuses an unknown anchor, a cycle).
func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// yamlKind is what a refused value is, said for the person fixing it.
func yamlKind(v *yaml.Node) string {
	switch {
	case v.Kind == yaml.SequenceNode:
		return "une liste"
	case v.Kind == yaml.MappingNode:
		return "une section"
	case v.Tag == "!!null":
		return "une valeur vide"
	case v.Tag == "!!int", v.Tag == "!!float":
		return "le nombre " + v.Value + ` (mettez-le entre guillemets s'il s'agit bien d'un texte : "` + v.Value + `")`
	case v.Tag == "!!bool":
		return "le booléen " + v.Value
	case v.Tag == "!!timestamp":
		return "une date"
	}
	return "une valeur de type " + strings.TrimPrefix(v.Tag, "!!")
}

// unknownWarning: the count and first three names (never a key piece).
func unknownWarning(unknown []string, path string) string {
	names := slices.Clone(unknown[:min(3, len(unknown))])
	for i, n := range names {
		names[i] = termtext.Escape(n)
		if keys.LooksLikeFragment(n) {
			names[i] = "(un nom en base64, non recopié)"
		}
	}
	if len(unknown) > 3 {
		names = append(names, "…")
	}
	switch len(unknown) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("clé de configuration inconnue, ignorée : %s (%s)", names[0], termtext.Escape(path))
	}
	return fmt.Sprintf("%d clés de configuration inconnues, ignorées : %s (%s)", len(unknown), strings.Join(names, ", "), termtext.Escape(path))
}

// checkSetting checks a final value, never quoted (it may be a key piece).
func checkSetting(key, s string) error {
	k, _ := lookupKey(key)
	if err := k.check(s); err != nil {
		return fmt.Errorf("%s : %v ; attendu %s", key, err, k.form)
	}
	return nil
}

// configValue is key's value. An empty grade variable is a value ("no
// grade"); for other keys it stays unset, as viper has it: an empty
// PRET_CLE_DOSSIER= left in a shell must not mean the current folder.
func configValue(v *viper.Viper, key string) string {
	if strings.HasPrefix(key, "feuille.") {
		v.AllowEmptyEnv(true) // viper reads the environment when asked
		defer v.AllowEmptyEnv(false)
	}
	return v.GetString(key)
}

func checkText(s string) error {
	// Printed back, it could drive the terminal; in a path, it is never meant.
	if strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }) >= 0 {
		return errors.New("caractère de contrôle refusé (une touche spéciale, un code de couleur)")
	}
	return nil
}

// checkWords: a text written into acces.md or a report holds no invisible
// character either, where a bidi control would reorder what the page shows
// (a path may: it names what is on disk, and is printed escaped).
func checkWords(s string) error {
	if strings.ContainsFunc(s, func(r rune) bool { return termtext.Unsafe(r) || termtext.Invisible(r) }) {
		return errors.New("caractère de contrôle ou invisible refusé (une touche spéciale, un code de couleur, une marque bidirectionnelle)")
	}
	return nil
}

func checkRequired(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("la valeur est vide")
	}
	return checkText(s)
}

func checkHour(s string) error {
	if _, err := time.Parse("15:04", strings.TrimSpace(s)); err != nil {
		return errors.New("ce n'est pas une heure HH:MM")
	}
	return nil
}

func checkKeyName(s string) error {
	if strings.TrimSpace(s) == "" || s == "." || s == ".." || strings.ContainsAny(s, `/\`) {
		return errors.New("ce n'est pas un nom de fichier seul")
	}
	return cmp.Or(checkText(s), keys.CheckName(s))
}

// sessionDay reads seance.date, with French reasons.
func sessionDay(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	d, err := time.Parse("2006-01-02", s)
	switch {
	case s == "":
		return d, errors.New("date de séance invalide : elle est vide")
	case err != nil && len(s) == 10 && s[4] == '-' && s[7] == '-':
		return d, errors.New("date de séance invalide : ce n'est pas un jour du calendrier")
	case err != nil:
		return d, errors.New("date de séance invalide : ce n'est pas de la forme AAAA-MM-JJ")
	case !dates.InYears(d.Year()):
		// Far dates overflow the count of days left and mean a typo.
		return d, fmt.Errorf("date de séance invalide : %s est hors des années %d à %d", s, dates.MinYear, dates.MaxYear)
	}
	return d, nil
}

func today() (time.Time, error) {
	if s := os.Getenv("PRET_AUJOURDHUI"); s != "" {
		d, err := time.Parse("2006-01-02", s)
		if err != nil {
			return time.Time{}, usageError("PRET_AUJOURDHUI sert aux tests : AAAA-MM-JJ", "PRET_AUJOURDHUI invalide : « %s »", termtext.Escape(s))
		}
		return d, nil
	}
	now := time.Now() // the learner's own calendar day
	return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC), nil
}

func expandHome(p string) (string, error) {
	sep := string(filepath.Separator)
	if first, rest, slash := strings.Cut(p, "/"); first == "~" || slash && (first == "$HOME" || first == "${HOME}") {
		home, err := os.UserHomeDir()
		if err != nil {
			// Go's reason is English ("$HOME is not defined"): said here.
			v := "HOME"
			if runtime.GOOS == "windows" {
				v = "USERPROFILE"
			}
			return "", usageError("définissez "+v, "dossier personnel inconnu : la variable %s est vide ou absente", v)
		}
		p = home + sep + rest
	}
	if !filepath.IsAbs(p) {
		wd, err := os.Getwd()
		if err != nil {
			return "", usageError("", "chemin invalide : « %s »", termtext.Escape(p))
		}
		p = wd + sep + p
	}
	// "a/link/../b" is not "a/b": with "..", the key guard resolves it.
	if !slices.Contains(strings.FieldsFunc(p, func(r rune) bool { return os.IsPathSeparator(uint8(r)) }), "..") {
		p = filepath.Clean(p)
	}
	return p, nil
}

// mustExist is exit 2 for a path named on the command line that is absent.
func mustExist(path string) error {
	// "fichier/x" under a regular file does not exist either (ENOTDIR).
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return usageError("vérifiez le chemin", "introuvable : %s", termtext.Escape(path))
	}
	return nil
}

// keyFiles is where keys meets safefile's reader and writer.
var keyFiles keys.Files = safefile.KeyFiles{}
