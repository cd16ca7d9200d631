package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// settingCase gives, for one config key, a value per level and how to
// read the result back from Config.
type settingCase struct {
	values [4]string // default is configKeys' own; file, env, flag
	get    func(c *Config) string
}

// TestPrecedenceEveryKey proves flag > PRET_ variable > config file >
// default for every config key, through the real flag parsing and the
// one viper instance the flags are bound to.
func TestPrecedenceEveryKey(t *testing.T) {
	home := testEnv(t)
	abs := func(p string) string { return filepath.Join(home, p) }
	cases := map[string]settingCase{
		"seance.titre":            {[4]string{"", "titre-fichier", "titre-env", "titre-option"}, func(c *Config) string { return c.SessionTitle }},
		"seance.date":             {[4]string{"", "2026-12-01", "2026-12-02", "2026-12-03"}, func(c *Config) string { return c.SessionDay.Format("2006-01-02") }},
		"seance.debut":            {[4]string{"", "08:00", "08:15", "08:30"}, func(c *Config) string { return c.SessionStart }},
		"seance.fin":              {[4]string{"", "13:00", "13:15", "13:30"}, func(c *Config) string { return c.SessionEnd }},
		"cle.dossier":             {[4]string{"", abs("fichier"), abs("env"), abs("option")}, func(c *Config) string { return c.Key.Dir }},
		"cle.nom":                 {[4]string{"", "nom_fichier", "nom_env", "nom_option"}, func(c *Config) string { return c.Key.Name }},
		"cle.commentaire":         {[4]string{"", "c-fichier", "c-env", "c-option"}, func(c *Config) string { return c.Key.Comment }},
		"acces.fichier":           {[4]string{"", abs("f.md"), abs("e.md"), abs("o.md")}, func(c *Config) string { return c.AccessFile }},
		"acces.modele":            {[4]string{"", abs("mf.md"), abs("me.md"), abs("mo.md")}, func(c *Config) string { return c.AccessModel }},
		"organisateurs.canal":     {[4]string{"", "canal-fichier", "canal-env", "canal-option"}, func(c *Config) string { return c.Channel }},
		"organisateurs.partition": {[4]string{"", "p-fichier", "p-env", "p-option"}, func(c *Config) string { return c.Partition }},
		"organisateurs.compte":    {[4]string{"", "a-fichier", "a-env", "a-option"}, func(c *Config) string { return c.Account }},
		"feuille.valide":          {[4]string{"", "20", "10,5", "A"}, func(c *Config) string { return c.SheetValid }},
		"feuille.invalide":        {[4]string{"", "", "0,5", "E"}, func(c *Config) string { return c.SheetInvalid }},
	}
	for _, k := range configKeys {
		tc, ok := cases[k.key]
		if !ok {
			t.Errorf("config key %s has no precedence case", k.key)
			continue
		}
		wantDefault := k.def
		switch k.key {
		case "cle.dossier":
			wantDefault = abs(".ssh")
		case "acces.fichier":
			wantDefault = abs("acces.md")
		}
		for level, name := range []string{"défaut", "fichier", "variable", "option"} {
			t.Run(k.key+"/"+name, func(t *testing.T) {
				os.Unsetenv(envOf(k.key))
				cfgPath := ""
				if level >= 1 {
					cfgPath = filepath.Join(t.TempDir(), "config.yaml")
					section, leaf, _ := strings.Cut(k.key, ".")
					os.WriteFile(cfgPath, fmt.Appendf(nil, "%s:\n  %s: %q\n", section, leaf, tc.values[1]), 0o644)
				}
				if level >= 2 {
					t.Setenv(envOf(k.key), tc.values[2])
				}
				var args []string
				if level >= 3 {
					args = []string{"--" + flagOf(k.key), tc.values[3]}
				}
				ios, _, _ := fakeStreams("", false, nil)
				a := newApp(ios)
				root := a.rootCommand()
				if err := root.ParseFlags(args); err != nil {
					t.Fatal(err)
				}
				cfg, warnings, err := loadConfig(a.v, cfgPath)
				if err != nil || len(warnings) > 0 {
					t.Fatalf("loadConfig: %v %v", err, warnings)
				}
				want := wantDefault
				if level > 0 {
					want = tc.values[level]
				}
				if got := tc.get(cfg); got != want {
					t.Errorf("%s at level %s: got %q, want %q", k.key, name, got, want)
				}
			})
		}
	}
}

// TestConfigFileErrors: a config file that is not YAML, a folder, or
// bigger than its cap is a usage error said in French; a key the file
// invents is a warning that cannot drive the terminal.
func TestConfigFileErrors(t *testing.T) {
	home := testEnv(t)
	write := func(name, content string) string { return put(t, home, name, content) }
	cases := []struct {
		name, path, say string
	}{
		{"not YAML", write("casse.yaml", "seance:\n  date: [\n"), "YAML invalide : ligne 2"},
		{"a folder", home, "pas un fichier ordinaire"},
		{"too large", write("gros.yaml", "# "+strings.Repeat("x", 2<<20)+"\n"), "trop grand"},
		{"absent", filepath.Join(home, "absent.yaml"), "introuvable"},
	}
	for _, tc := range cases {
		r := pretIn(t, "", "--config", tc.path, "verifier")
		says(t, r, exitUsage, tc.say)
		if w := englishWords.FindString(r.stderr); w != "" || strings.Contains(r.stderr, "yaml:") {
			t.Errorf("%s: English in\n%s", tc.name, r.stderr)
		}
	}
	p := write("cle.yaml", "\"cl\\u001b[31mé\": 1\n")
	r := pretIn(t, "", "--config", p, "verifier")
	if !strings.Contains(r.stderr, "clé de configuration inconnue") || strings.Contains(r.stderr, "\x1b") {
		t.Fatalf("unknown key warning:\n%q", r.stderr)
	}
}

// TestConfigSheetGradeEmptyEnv: an empty PRET_FEUILLE_VALIDE= or
// PRET_FEUILLE_INVALIDE= leaves the grade empty, as --feuille-valide ""
// and valide: "" do, over the config file and under the flag; for every
// other key an empty variable still counts as unset (the file's value).
func TestConfigSheetGradeEmptyEnv(t *testing.T) {
	home := testEnv(t)
	cfgPath := filepath.Join(home, "config.yaml")
	os.WriteFile(cfgPath, []byte("feuille:\n  valide: \"20\"\n  invalide: \"5\"\norganisateurs:\n  canal: canal-fichier\n"), 0o644)
	load := func(args ...string) *Config {
		t.Helper()
		ios, _, _ := fakeStreams("", false, nil)
		a := newApp(ios)
		if err := a.rootCommand().ParseFlags(args); err != nil {
			t.Fatal(err)
		}
		cfg, _, err := loadConfig(a.v, cfgPath)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	t.Setenv("PRET_FEUILLE_VALIDE", "")
	t.Setenv("PRET_FEUILLE_INVALIDE", "")
	t.Setenv("PRET_ORGANISATEURS_CANAL", "")
	if c := load(); c.SheetValid != "" || c.SheetInvalid != "" || c.Channel != "canal-fichier" {
		t.Errorf("empty variables: valide %q, invalide %q, canal %q", c.SheetValid, c.SheetInvalid, c.Channel)
	}
	if c := load("--feuille-valide", "A", "--feuille-invalide", "E"); c.SheetValid != "A" || c.SheetInvalid != "E" {
		t.Errorf("the flag under an empty variable: %q %q", c.SheetValid, c.SheetInvalid)
	}
	if c := load("--feuille-valide", ""); c.SheetValid != "" {
		t.Errorf("an empty flag: %q", c.SheetValid)
	}
	os.Unsetenv("PRET_FEUILLE_VALIDE")
	if c := load(); c.SheetValid != "20" || c.SheetInvalid != "" {
		t.Errorf("one variable unset: %q %q", c.SheetValid, c.SheetInvalid)
	}
}

// TestCheckWordsRefusesUnsafe: a text setting holds no control, line
// separator or invisible character (Cf, a Hangul filler, U+034F): a bidi
// mark in the session title reached acces.md raw (outside testers).
func TestCheckWordsRefusesUnsafe(t *testing.T) {
	for _, s := range []string{"rouge\x1b[31m", "Titre \u202eevil\u202c fin", "a\u2028b", "a\u200bb", "a\u0085b", "a\tb", "a\u3164b", "a\u034fb", "a\u115fb", "a\uffa0b"} {
		if checkWords(s) == nil {
			t.Errorf("%q accepted", s)
		}
	}
	for _, s := range []string{"", "Séance ROMEO — jeudi 5 novembre", "gpu", "canal #romeo-2026 (Mattermost)"} {
		if err := checkWords(s); err != nil {
			t.Errorf("%q refused: %v", s, err)
		}
	}
}
