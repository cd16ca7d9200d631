package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/keys"
)

// configFile is a config file once read: the known settings it gives,
// and how many keys it has that pret does not know.
type configFile struct {
	values  map[string]any // "cle.dossier" -> string, or time.Time for seance.date
	unknown int
	sample  []string // the first unknown keys, for the warning
}

// parseConfigFile reads the YAML of a config file. It decodes into
// yaml.Node and walks it itself: decoding 200,000 keys into a map, as
// viper does, checks each key against all the others (quadratic), while
// this walk is linear. Aliases are followed only where a known value
// needs them, within a budget, so a "billion laughs" file costs nothing.
func parseConfigFile(data []byte, known []string) (*configFile, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, errors.New(frenchYAMLError(err))
	}
	cf := &configFile{values: map[string]any{}}
	if len(doc.Content) == 0 {
		return cf, nil // an empty file sets nothing
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return cf, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("ligne %d : le fichier doit être une suite de réglages « clé: valeur » (voir le modèle du README)", root.Line)
	}
	sections := map[string]map[string]bool{}
	for _, k := range known {
		sec, name, _ := strings.Cut(k, ".")
		if sections[sec] == nil {
			sections[sec] = map[string]bool{}
		}
		sections[sec][name] = true
	}
	// Each pair read from the text costs at least two bytes of it; the
	// rest of the budget is for what merge keys add.
	w := &configWalker{budget: len(data) + 10000}
	seenSection := map[string]int{}
	err := w.pairs(root, func(k, v *yaml.Node) error {
		sec := strings.ToLower(k.Value)
		names, ok := sections[sec]
		if !ok {
			cf.countLeaves(k.Value, v)
			return nil
		}
		if line, dup := seenSection[sec]; dup {
			return fmt.Errorf("ligne %d : la section %s est donnée deux fois (déjà ligne %d)", k.Line, sec, line)
		}
		seenSection[sec] = k.Line
		v = w.deref(v)
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			return nil // "cle:" with nothing under it: nothing set
		}
		if v.Kind != yaml.MappingNode {
			return fmt.Errorf("ligne %d : %s est une section ; attendu des réglages en dessous, par exemple « %s: » puis « %s: … » en retrait", v.Line, sec, sec, firstName(names))
		}
		seen := map[string]int{}
		return w.pairs(v, func(k, v *yaml.Node) error {
			name := strings.ToLower(k.Value)
			key := sec + "." + name
			if !names[name] {
				cf.countLeaves(sec+"."+k.Value, v)
				return nil
			}
			if line, dup := seen[name]; dup {
				return fmt.Errorf("ligne %d : %s est donné deux fois (déjà ligne %d)", k.Line, key, line)
			}
			seen[name] = k.Line
			val, err := w.scalar(key, v)
			if err != nil {
				return err
			}
			cf.values[key] = val
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return cf, nil
}

type configWalker struct{ budget int }

var errAliasBudget = errors.New("trop d'alias YAML (* et <<) à suivre : écrivez les réglages sans alias")

// deref follows an alias to the node it names.
func (w *configWalker) deref(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// pairs calls f for each key and value of a mapping, merge keys ("<<")
// included, within the walker's budget.
func (w *configWalker) pairs(m *yaml.Node, f func(k, v *yaml.Node) error) error {
	for i := 0; i+1 < len(m.Content); i += 2 {
		w.budget--
		if w.budget < 0 {
			return errAliasBudget
		}
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			v = w.deref(v)
			var merged []*yaml.Node
			switch v.Kind {
			case yaml.MappingNode:
				merged = []*yaml.Node{v}
			case yaml.SequenceNode:
				merged = v.Content
			}
			for _, mm := range merged {
				if mm = w.deref(mm); mm.Kind == yaml.MappingNode {
					if err := w.pairs(mm, f); err != nil {
						return err
					}
				}
			}
			continue
		}
		if k.Kind != yaml.ScalarNode {
			return fmt.Errorf("ligne %d : une clé de configuration est un nom simple", k.Line)
		}
		if err := f(k, v); err != nil {
			return err
		}
	}
	return nil
}

// scalar decodes a known setting's value: text, or a date for
// seance.date. Anything else names the key and the form expected.
func (w *configWalker) scalar(key string, v *yaml.Node) (any, error) {
	v = w.deref(v)
	what := map[yaml.Kind]string{yaml.SequenceNode: "une liste", yaml.MappingNode: "une section", yaml.AliasNode: "un alias"}
	if v.Kind != yaml.ScalarNode {
		return nil, configTypeError(key, v.Line, what[v.Kind])
	}
	switch v.Tag {
	case "!!str":
		return v.Value, nil
	case "!!null":
		return nil, configTypeError(key, v.Line, "une valeur vide")
	case "!!timestamp":
		if key == "seance.date" {
			return v.Value, nil // checked as AAAA-MM-JJ with the other sources
		}
		return nil, configTypeError(key, v.Line, "une date")
	case "!!int", "!!float":
		return nil, configTypeError(key, v.Line, "le nombre "+v.Value+` (mettez-le entre guillemets s'il s'agit bien d'un texte : "`+v.Value+`")`)
	case "!!bool":
		return nil, configTypeError(key, v.Line, "le booléen "+v.Value)
	}
	return nil, configTypeError(key, v.Line, "une valeur de type "+strings.TrimPrefix(v.Tag, "!!"))
}

func configTypeError(key string, line int, found string) error {
	return &settingError{key: key, msg: fmt.Sprintf("ligne %d : %s vaut %s ; attendu %s", line, key, found, expectedForm(key))}
}

// settingError is a setting of the config file with a value of the wrong
// type; loadConfig says which setting.
type settingError struct{ key, msg string }

func (e *settingError) Error() string { return e.msg }

// expectedForm is what a setting takes, said for the person fixing it.
func expectedForm(key string) string {
	switch key {
	case "seance.titre":
		return "un texte, le titre de la séance"
	case "seance.date":
		return "une date AAAA-MM-JJ entre 2000 et 2100, par exemple 2026-11-05"
	case "seance.debut", "seance.fin":
		return "une heure HH:MM, par exemple \"09:30\""
	case "cle.dossier":
		return "un dossier, par exemple ~/.ssh"
	case "cle.nom":
		return "un nom de fichier seul, par exemple id_ed25519_romeo"
	case "cle.commentaire":
		return "un texte d'une ligne, par exemple seance-novembre"
	case "acces.fichier":
		return "un chemin de fichier, par exemple acces.md"
	case "acces.modele":
		return "un chemin de fichier modèle, ou \"\" pour le modèle intégré"
	case "feuille.valide", "feuille.invalide":
		return "une note entre guillemets, par exemple \"1\", ou \"\" pour ne pas noter"
	}
	return "un texte"
}

// countLeaves counts the keys under an unknown key without following
// aliases (an alias is one key), and keeps the first three names.
func (cf *configFile) countLeaves(prefix string, v *yaml.Node) {
	if v.Kind != yaml.MappingNode || len(v.Content) == 0 {
		cf.unknown++
		if len(cf.sample) < 3 {
			cf.sample = append(cf.sample, prefix)
		}
		return
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		cf.countLeaves(prefix+"."+v.Content[i].Value, v.Content[i+1])
	}
}

func firstName(names map[string]bool) string {
	var all []string
	for n := range names {
		all = append(all, n)
	}
	sort.Strings(all)
	return all[0]
}

// unknownWarning is the one warning for all unknown keys.
func (cf *configFile) unknownWarning(path string) string {
	if cf.unknown == 0 {
		return ""
	}
	names := make([]string, len(cf.sample))
	for i, n := range cf.sample {
		names[i] = checklist.Escape(n)
		if keys.LooksLikeFragment(n) {
			names[i] = "(un nom en base64, non recopié)"
		}
	}
	list := strings.Join(names, ", ")
	path = checklist.Escape(path)
	if cf.unknown > len(cf.sample) {
		list += ", …"
	}
	if cf.unknown == 1 {
		return fmt.Sprintf("clé de configuration inconnue, ignorée : %s (%s)", list, path)
	}
	return fmt.Sprintf("%d clés de configuration inconnues, ignorées : %s (%s)", cf.unknown, list, path)
}

// checkSetting checks a setting's final value, whichever source gave it.
func checkSetting(key string, raw any) error {
	s, ok := raw.(string)
	if !ok {
		if d, isTime := raw.(time.Time); isTime && key == "seance.date" {
			s = d.Format("2006-01-02")
		} else {
			return fmt.Errorf("%s n'est pas un texte ; attendu %s", key, expectedForm(key))
		}
	}
	empty := strings.TrimSpace(s) == ""
	if key != "cle.commentaire" && strings.IndexFunc(s, isControl) >= 0 {
		// Printed back on a terminal, it could drive it; in a path, it is
		// never what the person meant.
		return fmt.Errorf("%s contient un caractère de contrôle ; attendu %s", key, expectedForm(key))
	}
	switch key {
	case "seance.titre", "cle.dossier", "acces.fichier":
		if empty {
			return fmt.Errorf("%s est vide ; attendu %s", key, expectedForm(key))
		}
	case "cle.nom":
		if empty || strings.ContainsAny(s, `/\`) || s == "." || s == ".." || strings.IndexFunc(s, isControl) >= 0 {
			return fmt.Errorf("%s invalide (%s) ; attendu %s", key, quoteValue(s), expectedForm(key))
		}
		if err := keys.CheckName(s); err != nil {
			return fmt.Errorf("%s : %v", key, err)
		}
	case "cle.commentaire":
		if err := keys.CheckComment(s); err != nil {
			return fmt.Errorf("%s : %v", key, err)
		}
	case "seance.debut", "seance.fin":
		if _, err := time.Parse("15:04", strings.TrimSpace(s)); err != nil {
			return fmt.Errorf("%s invalide (%s) ; attendu %s", key, quoteValue(s), expectedForm(key))
		}
	case "seance.date":
		if _, err := sessionDay(s); err != nil {
			return err
		}
	}
	return nil
}

// sessionDay is seance.date read as configDay reads it, with the message
// the person gets from any source.
func sessionDay(s string) (time.Time, error) {
	d, err := configDay(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("date de séance invalide : %v (seance.date) ; attendu %s", err, expectedForm("seance.date"))
	}
	return d, nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// frenchYAMLError says where and why the config file is not YAML, in
// French (checklist.YAMLProblem, the one translator of parser messages).
func frenchYAMLError(err error) string {
	line, reason := checklist.YAMLProblem(err)
	if line > 0 {
		return fmt.Sprintf("YAML invalide à la ligne %d : %s", line, reason)
	}
	return "YAML invalide : " + reason
}

// tree is the known settings as sections of values, the shape viper
// reads a config file into.
func (cf *configFile) tree() map[string]any {
	tree := map[string]any{}
	for k, v := range cf.values {
		sec, name, _ := strings.Cut(k, ".")
		m, _ := tree[sec].(map[string]any)
		if m == nil {
			m = map[string]any{}
			tree[sec] = m
		}
		m[name] = v
	}
	return tree
}

// quoteValue quotes a refused value, unless it may be a piece of a key:
// an error message is an output, and no output repeats key material.
func quoteValue(s string) string {
	if keys.LooksLikeFragment(s) {
		return "valeur en base64, non recopiée"
	}
	return fmt.Sprintf("%q", s)
}
