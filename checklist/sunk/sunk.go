// Package sunk checks, offline, the values that put CoreWeave sandboxes on
// the SUNK Pod Scheduler (docs/sunk.md). It runs nothing, connects nowhere.
package sunk

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/romeo-pret/pret/checklist"
)

// Inputs are the files' contents (nil when not given) and the flags.
type Inputs struct {
	Values, Policy, Pods, ConfigMap []byte
	Grace                           int      // seconds; Kubernetes' default is 30
	Sandboxes                       []string // namespaces the scheduler must watch
}

type InputError struct{ File, Reason string }

func (e *InputError) Error() string { return e.File + " : " + e.Reason }

// decode refuses a key given twice, as the config file and a Job are
// refused: Helm would take the later one, and the checks would judge a
// value the operator may not know is there.
func decode(name string, data []byte) (map[string]any, error) {
	js, err := yaml.YAMLToJSONStrict(data)
	if err != nil {
		return nil, &InputError{name, "ni YAML ni JSON lisible : " + checklist.YAMLError(err)}
	}
	var m map[string]any
	if err := json.Unmarshal(js, &m); err != nil || m == nil {
		return nil, &InputError{name, "le document n'est pas un objet (clé: valeur)"}
	}
	return m, nil
}

// get walks keys through decoded YAML: nil where one is missing.
func get(v any, path ...string) any {
	for _, p := range path {
		m, _ := v.(map[string]any)
		v = m[p]
	}
	return v
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

// killWait reads slurmConfig.KillWait as slurm.conf takes it: a whole
// number of seconds, 0 to 65535, without a unit — slurmctld refuses
// "KillWait=60s". 60 and "60" render alike in slurm.conf.
func killWait(v any) (int, bool) {
	n, err := strconv.ParseUint(strings.TrimSpace(str(v)), 10, 16)
	return int(n), err == nil
}

// duration reads --slurm-kill-wait as the scheduler's flag takes it, a
// duration with its unit ("60s", "1m"): a bare "60" has none.
func duration(s string) (int, bool) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	return int(d / time.Second), err == nil && d >= 0 && d%time.Second == 0
}

// items are the objects of a List (kubectl get -o yaml), or doc itself.
func items(doc map[string]any) []any {
	if l, ok := get(doc, "items").([]any); ok || doc == nil {
		return l
	}
	return []any{doc}
}

const step2Command = "kubectl get configmap -n tenant-slurm -l app.kubernetes.io/component=scheduler -o jsonpath='{.items[0].data.scheduler\\.conf}' | yq '.scheduler.name'"

// Check runs the checks of sunk.md, in order.
func Check(in Inputs) (*checklist.Report, error) {
	c, err := read(in)
	if err != nil {
		return nil, err
	}
	c.r = &checklist.Report{Name: "pret sunk"}
	c.schedulerEnabled()
	c.schedulerName()
	c.killWaitAligned()
	c.graceBelowKillWait()
	c.policyNoGrace()
	c.scopeCoversSandboxes()
	c.annotations()
	c.r.Add("nodeset-requests", checklist.Skip, "pret ne voit pas la capacité des nœuds hors ligne",
		"étape 6 : réduisez les demandes de ressources de slurmd sur les NodeSets partagés, sinon les pods des bacs à sable sont rejetés (OutOfMemory, OutOfcpu)")
	return c.r, nil
}

// checking is what the files say, read once, and the report each check
// adds its line to.
type checking struct {
	in             Inputs
	values, policy map[string]any
	kwValues       *int   // slurmConfig.KillWait of the values
	kwPods         *int   // --slurm-kill-wait of the scheduler container
	podsName       string // its --scheduler-name
	cmName         string // scheduler.name of the ConfigMap's scheduler.conf
	r              *checklist.Report
}

// read decodes the files; an error names the flag of the file at fault.
func read(in Inputs) (*checking, error) {
	flags := []string{"--valeurs", "--politique", "--pods", "--configmap"}
	files := [][]byte{in.Values, in.Policy, in.Pods, in.ConfigMap}
	// A file with private key material is not read: checks quote values.
	for i, data := range files {
		if _, leaks := checklist.Guard(data); len(leaks) > 0 {
			return nil, &InputError{flags[i], leaks[0].Message}
		}
	}
	docs := make([]map[string]any, len(files))
	for i, data := range files {
		if data == nil && i >= 2 {
			continue // --pods and --configmap are optional
		}
		var err error
		if docs[i], err = decode(flags[i], data); err != nil {
			return nil, err
		}
	}
	c := &checking{in: in, values: docs[0], policy: docs[1]}
	if v := get(c.values, "slurmConfig", "KillWait"); v != nil {
		n, valid := killWait(v)
		if !valid {
			return nil, &InputError{"--valeurs", fmt.Sprintf("slurmConfig.KillWait est %s : Slurm attend un nombre entier de secondes, sans unité, comme KillWait: 60", shown(v))}
		}
		c.kwValues = &n
	}
	if inner, ok := get(c.policy, "policy").(map[string]any); ok {
		c.policy = inner // runner.json, as GetManagedRunner returns it
	}
	var err error
	if c.kwPods, c.podsName, err = readPods(docs[2]); err != nil {
		return nil, err
	}
	if c.cmName, err = readConfigMap(docs[3]); err != nil {
		return nil, err
	}
	return c, nil
}

// readPods finds --slurm-kill-wait and --scheduler-name of the first
// scheduler container.
func readPods(doc map[string]any) (killWait *int, name string, err error) {
	for _, item := range items(doc) {
		list, _ := get(item, "spec", "containers").([]any)
		for _, c := range list {
			if str(get(c, "name")) != "scheduler" {
				continue
			}
			command, _ := get(c, "command").([]any)
			rest, _ := get(c, "args").([]any)
			var args []string
			for _, a := range append(command, rest...) {
				args = append(args, str(a))
			}
			return schedulerArgs(args)
		}
	}
	return nil, "", nil
}

func schedulerArgs(args []string) (killWait *int, name string, err error) {
	for i, a := range args {
		flag, value, has := strings.Cut(a, "=")
		if !has && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			value = args[i+1]
		}
		switch flag {
		case "--slurm-kill-wait":
			n, ok := duration(value)
			if !ok {
				return nil, "", &InputError{"--pods", fmt.Sprintf("--slurm-kill-wait=%s : une durée en secondes entières, avec son unité, est attendue, comme 60s", value)}
			}
			killWait = &n
		case "--scheduler-name":
			name = value
		}
	}
	return killWait, name, nil
}

// readConfigMap is scheduler.name in the first scheduler.conf.
func readConfigMap(doc map[string]any) (string, error) {
	for _, item := range items(doc) {
		if conf := get(item, "data", "scheduler.conf"); conf != nil {
			inner, err := decode("--configmap (scheduler.conf)", []byte(str(conf)))
			if err != nil {
				return "", err
			}
			return str(get(inner, "scheduler", "name")), nil
		}
	}
	return "", nil
}

// shown says a decoded YAML value with its type where the type is not
// plain: "60" in quotes is a string, not the number it spells.
func shown(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("la chaîne %q", x)
	case float64:
		return "le nombre " + str(x)
	case []any:
		return "une liste"
	case map[string]any:
		return "un objet"
	}
	return str(v)
}

func (c *checking) schedulerEnabled() {
	var msg string
	// Only the boolean is sure to enable the scheduler: a Helm "if" takes
	// any non-empty string for true, "false" too, but a chart may as well
	// compare the value to true or refuse a string in its schema.
	switch enabled := get(c.values, "scheduler", "enabled"); enabled.(type) {
	case nil:
		msg = "scheduler.enabled est absent des valeurs Helm"
	case bool:
		if enabled == true {
			c.r.Add("scheduler-enabled", checklist.Pass, "scheduler.enabled: true dans les valeurs Helm", "")
			return
		}
		msg = "scheduler.enabled vaut false dans les valeurs Helm"
	case string:
		msg = fmt.Sprintf("scheduler.enabled est %s, pas le booléen true : un « if » de Helm prend toute chaîne non vide pour vraie, même \"false\", mais le chart peut aussi la comparer à true ou la refuser", shown(enabled))
	default:
		msg = fmt.Sprintf("scheduler.enabled est %s, pas le booléen true", shown(enabled))
	}
	c.r.Add("scheduler-enabled", checklist.Fail, msg,
		"définissez scheduler.enabled: true, le booléen, sans guillemets, dans les valeurs Helm de Slurm et appliquez-les par Helm")
}

func (c *checking) schedulerName() {
	name, source := c.cmName, "la ConfigMap de l'ordonnanceur"
	if name == "" {
		name, source = c.podsName, "l'argument --scheduler-name du pod (SUNK 7.x)"
	}
	if name == "" {
		name, source = str(get(c.values, "scheduler", "name")), "scheduler.name des valeurs Helm"
	}
	policyScheduler := str(get(c.policy, "base", "spec", "schedulerName"))
	switch {
	case name == "":
		c.r.Add("scheduler-name", checklist.Skip, "aucune source ne donne le nom de l'ordonnanceur ; pret ne le devine pas",
			"lisez-le comme à l'étape 2 : "+step2Command+" (SUNK 7.x : l'argument --scheduler-name du pod), puis donnez --configmap ou --pods")
	case policyScheduler == "":
		c.r.Add("scheduler-name", checklist.Fail, "la politique n'a pas de base.spec.schedulerName", fmt.Sprintf("ajoutez base.spec.schedulerName: %q à la politique (nom lu dans %s)", name, source))
	case policyScheduler != name:
		c.r.Add("scheduler-name", checklist.Fail, fmt.Sprintf("la politique dit %q, %s dit %q", policyScheduler, source, name), fmt.Sprintf("mettez base.spec.schedulerName: %q dans la politique", name))
	default:
		c.r.Add("scheduler-name", checklist.Pass, fmt.Sprintf("schedulerName %q, comme %s", name, source), "")
	}
}

func (c *checking) killWaitAligned() {
	switch kwValues, kwPods := c.kwValues, c.kwPods; {
	case kwValues != nil && kwPods != nil && *kwValues != *kwPods:
		c.r.Add("kill-wait-aligned", checklist.Fail, fmt.Sprintf("KillWait vaut %d s dans les valeurs, l'ordonnanceur tourne avec --slurm-kill-wait=%ds", *kwValues, *kwPods),
			"appliquez les valeurs par votre déploiement SUNK habituel, puis vérifiez que l'ordonnanceur indique le même --slurm-kill-wait")
	case kwValues != nil && kwPods != nil:
		c.r.Add("kill-wait-aligned", checklist.Pass, fmt.Sprintf("KillWait %d s des deux côtés", *kwValues), "")
	default:
		c.r.Add("kill-wait-aligned", checklist.Skip, "il faut KillWait dans les valeurs et --pods pour comparer", "")
	}
}

func (c *checking) graceBelowKillWait() {
	grace, kw, kwFrom := c.in.Grace, 30, "le défaut de Slurm (30 s), faute de KillWait connu"
	switch {
	case c.kwValues != nil:
		kw, kwFrom = *c.kwValues, "slurmConfig.KillWait"
	case c.kwPods != nil:
		kw, kwFrom = *c.kwPods, "--slurm-kill-wait du pod"
	}
	switch {
	case grace < kw-5 && c.kwValues == nil && c.kwPods == nil:
		c.r.Add("grace-below-kill-wait", checklist.Warn, fmt.Sprintf("délai de grâce %d s < KillWait − 5 s, avec %s", grace, kwFrom), "donnez --valeurs avec slurmConfig.KillWait pour vérifier la vraie valeur")
	case grace < kw-5:
		c.r.Add("grace-below-kill-wait", checklist.Pass, fmt.Sprintf("délai de grâce %d s < KillWait %d s − 5 s (%s)", grace, kw, kwFrom), "")
	default:
		c.r.Add("grace-below-kill-wait", checklist.Fail, fmt.Sprintf("délai de grâce %d s : il faut KillWait − 5 s strictement au-dessus, or KillWait vaut %d s (%s)", grace, kw, kwFrom),
			fmt.Sprintf("fixez slurmConfig.KillWait à %d au moins (par exemple 60 pour le délai par défaut de 30 s, 330 pour les 300 s d'un stockage à instantanés), et gardez --slurm-kill-wait de l'ordonnanceur aligné", grace+6))
	}
}

func (c *checking) policyNoGrace() {
	if get(c.policy, "base", "spec", "terminationGracePeriodSeconds") != nil {
		c.r.Add("policy-no-grace", checklist.Fail, "la politique contient base.spec.terminationGracePeriodSeconds", "retirez ce champ : la politique le refuse ; réglez plutôt KillWait côté Slurm")
	} else {
		c.r.Add("policy-no-grace", checklist.Pass, "pas de terminationGracePeriodSeconds dans la politique", "")
	}
}

// scopeNamespaces is scheduler.scope.namespaces, a list or "a,b".
func scopeNamespaces(values map[string]any) []string {
	var namespaces []string
	switch x := get(values, "scheduler", "scope", "namespaces").(type) {
	case []any:
		for _, n := range x {
			if n := strings.TrimSpace(str(n)); n != "" {
				namespaces = append(namespaces, n)
			}
		}
	case string:
		for _, n := range strings.Split(x, ",") {
			if n = strings.TrimSpace(n); n != "" {
				namespaces = append(namespaces, n)
			}
		}
	}
	return namespaces
}

func (c *checking) scopeCoversSandboxes() {
	scope := get(c.values, "scheduler", "scope", "type")
	namespaces := scopeNamespaces(c.values)
	switch scopeType := str(scope); {
	case scope == nil:
		c.r.Add("scope-covers-sandboxes", checklist.Warn, "aucune portée (scheduler.scope) : l'ordonnanceur ne surveille que son propre namespace",
			"définissez scheduler.scope.type: cluster pour voir tous les namespace des bacs à sable, et appliquez par Helm")
	case scopeType == "cluster":
		c.r.Add("scope-covers-sandboxes", checklist.Pass, "scope.type: cluster : tous les namespace sont surveillés", "")
	case scopeType == "namespace" && len(c.in.Sandboxes) == 0:
		watched := " sans scheduler.scope.namespaces"
		if len(namespaces) > 0 {
			watched = " (" + strings.Join(namespaces, ", ") + ")"
		}
		c.r.Add("scope-covers-sandboxes", checklist.Warn, "scope.type: namespace"+watched+", aucun namespace de bac à sable donné à vérifier",
			"donnez --bacs-a-sable NS,NS… pour vérifier, ou passez à scheduler.scope.type: cluster")
	case scopeType == "namespace":
		missing := slices.DeleteFunc(slices.Clone(c.in.Sandboxes), func(n string) bool { return slices.Contains(namespaces, n) })
		if len(missing) > 0 {
			c.r.Add("scope-covers-sandboxes", checklist.Fail, "namespace de bac à sable hors de scheduler.scope.namespaces : "+strings.Join(missing, ", "),
				"ajoutez-les à scheduler.scope.namespaces et appliquez par Helm (les droits RBAC suivent), ou passez à scheduler.scope.type: cluster")
		} else {
			c.r.Add("scope-covers-sandboxes", checklist.Pass, "chaque namespace de bac à sable est dans scheduler.scope.namespaces", "")
		}
	default:
		c.r.Add("scope-covers-sandboxes", checklist.Fail, fmt.Sprintf("scheduler.scope.type vaut %q : cluster ou namespace attendu", scopeType), "écrivez scheduler.scope.type: cluster")
	}
}

const sunkPrefix = "sunk.coreweave.com/"

// sortAnnotations splits SUNK's annotations into malformed ones and the
// SUNK-like keys this check does not know, each said why.
func sortAnnotations(a map[string]any) (bad, other []string) {
	for _, k := range slices.Sorted(maps.Keys(a)) {
		v := str(a[k])
		switch k {
		case "sunk.coreweave.com/partition":
			if strings.TrimSpace(v) == "" {
				bad = append(bad, k+" est vide : le nom d'une partition est attendu")
			}
		case "sunk.coreweave.com/user-id":
			if _, err := strconv.ParseUint(v, 10, 32); err != nil {
				bad = append(bad, fmt.Sprintf("%s vaut %q : un UID numérique est attendu (id -u)", k, v))
			}
		case "sunk.coreweave.com/exclusive":
			if v != "none" && v != "user" {
				bad = append(bad, fmt.Sprintf("%s vaut %q : none ou user", k, v))
			}
		default:
			switch n := len(sunkPrefix); {
			case strings.HasPrefix(k, sunkPrefix):
				other = append(other, k+" : annotation SUNK inconnue de cette vérification")
			case len(k) > n && strings.EqualFold(k[:n], sunkPrefix):
				// Annotation keys are case-sensitive: this is not SUNK's.
				other = append(other, fmt.Sprintf("%s : la casse compte, l'ordonnanceur ignore cette clé ; écrivez %s", k, sunkPrefix+k[n:]))
			}
		}
	}
	return bad, other
}

func (c *checking) annotations() {
	a, _ := get(c.policy, "base", "metadata", "annotations").(map[string]any)
	bad, other := sortAnnotations(a)
	switch {
	case len(bad) > 0:
		c.r.Add("annotations", checklist.Fail, strings.Join(bad, " ; "), "corrigez ces annotations dans base.metadata.annotations de la politique")
	case len(other) > 0:
		c.r.Add("annotations", checklist.Warn, strings.Join(other, " ; "), "écrivez les annotations telles que la documentation de SUNK les nomme, préfixe sunk.coreweave.com/ en minuscules")
	case len(a) == 0:
		c.r.Add("annotations", checklist.Pass, "aucune annotation dans la politique", "")
	default:
		c.r.Add("annotations", checklist.Pass, "annotations SUNK bien formées", "")
	}
}
