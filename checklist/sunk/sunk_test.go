package sunk

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"regexp"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/testenv"
	"golang.org/x/crypto/ssh"
)

const values = `scheduler:
  enabled: true
  scope:
    type: cluster
slurmConfig:
  KillWait: 60
`

const policy = `base:
  metadata:
    annotations:
      sunk.coreweave.com/partition: "sandboxes"
  spec:
    schedulerName: "slurm-scheduler"
`

const configMap = `apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: ConfigMap
    metadata:
      name: slurm-scheduler-config
      namespace: tenant-slurm
    data:
      scheduler.conf: |
        scheduler:
          name: slurm-scheduler
`

const pods7 = `apiVersion: v1
kind: List
items:
  - kind: Pod
    metadata:
      name: slurm-scheduler-7c9
    spec:
      containers:
        - name: sidecar
          args: ["--scheduler-name=autre"]
        - name: scheduler
          args:
            - --slurm-kill-wait=60s
            - --scheduler-name=slurm-scheduler
`

func status(t *testing.T, in Inputs) map[string]checklist.Check {
	t.Helper()
	if in.Grace == 0 {
		in.Grace = 30
	}
	r, err := Check(in)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]checklist.Check{}
	var ids []string
	for _, c := range r.Checks {
		m[c.ID] = c
		ids = append(ids, c.ID)
		if c.Status == checklist.Fail && c.Fix == "" {
			t.Errorf("%s fails without a fix", c.ID)
		}
	}
	want := "scheduler-enabled scheduler-name kill-wait-aligned grace-below-kill-wait policy-no-grace scope-covers-sandboxes annotations nodeset-requests"
	if strings.Join(ids, " ") != want {
		t.Fatalf("checks out of order: %v", ids)
	}
	return m
}

func in(v, p string) Inputs { return Inputs{Values: []byte(v), Policy: []byte(p), Grace: 30} }

func TestReadySet(t *testing.T) {
	x := in(values, policy)
	x.ConfigMap = []byte(configMap)
	x.Pods = []byte(pods7)
	for id, c := range status(t, x) {
		want := checklist.Pass
		if id == "nodeset-requests" {
			want = checklist.Skip
		}
		if c.Status != want {
			t.Errorf("%s: %s %s", id, c.Status, c.Message)
		}
	}
}

// TestCheckStatuses: inputs, one check of their report, the status it
// must have and what its message or fix must hold. The scheduler name
// comes from the ConfigMap, else the pods, else the values, and is
// skipped, never guessed, without any; KillWait from the values, else
// the pods. scheduler.enabled passes as the boolean true only, and its
// failure says what it is instead. SUNK's annotations must be well
// formed; others are not read.
func TestCheckStatuses(t *testing.T) {
	kw := func(v string) string { return testenv.Edit(values, "KillWait: 60", "KillWait: "+v) }
	noKillWait := testenv.Edit(values, "slurmConfig:\n  KillWait: 60\n", "")
	named := testenv.Edit(values, "  enabled: true\n", "  enabled: true\n  name: depuis-les-valeurs\n")
	unnamed := testenv.Edit(policy, `    schedulerName: "slurm-scheduler"`+"\n", "")
	jsonPolicy := `{"base":{"spec":{"schedulerName":"slurm-scheduler"}}}`
	runner := `{"identity":{"runnerId":"r-1"},"etag":"e","policy":{"base":{"spec":{"schedulerName":"slurm-scheduler","terminationGracePeriodSeconds":30}}}}`
	otherName := testenv.Edit(configMap, "name: slurm-scheduler\n", "name: sunk-sched\n")
	ann := func(kv string) string {
		return "base:\n  metadata:\n    annotations:\n      " + kv + "\n  spec:\n    schedulerName: slurm-scheduler\n"
	}
	for _, c := range []struct {
		values, policy, configMap, pods string
		grace                           int // 30 when 0
		check                           string
		want                            checklist.Status
		says                            string
	}{
		{values, policy, "", "", 0, "scheduler-enabled", checklist.Pass, ""},
		{testenv.Edit(values, "enabled: true", "enabled: yes"), policy, "", "", 0, "scheduler-enabled", checklist.Pass, ""}, // YAML 1.1, as Helm reads it
		{testenv.Edit(values, "enabled: true", "enabled: false"), policy, "", "", 0, "scheduler-enabled", checklist.Fail, "vaut false"},
		{testenv.Edit(values, "  enabled: true\n", ""), policy, "", "", 0, "scheduler-enabled", checklist.Fail, "est absent des valeurs"},
		// A string is not the boolean, even one Helm's "if" takes for true.
		{testenv.Edit(values, "enabled: true", `enabled: "true"`), policy, "", "", 0, "scheduler-enabled", checklist.Fail, `la chaîne "true", pas le booléen true`},
		{testenv.Edit(values, "enabled: true", "enabled: 1"), policy, "", "", 0, "scheduler-enabled", checklist.Fail, "le nombre 1, pas le booléen"},
		{testenv.Edit(values, "enabled: true", "enabled: [true]"), policy, "", "", 0, "scheduler-enabled", checklist.Fail, "une liste, pas le booléen"},
		// No source: the seed's command as the hint.
		{values, policy, "", "", 0, "scheduler-name", checklist.Skip, "yq '.scheduler.name'"},
		{values, policy, otherName, "", 0, "scheduler-name", checklist.Fail, `"sunk-sched"`},
		{values, policy, "", pods7, 0, "scheduler-name", checklist.Pass, "SUNK 7.x"},
		{named, policy, "", "", 0, "scheduler-name", checklist.Fail, "depuis-les-valeurs"},
		{named, policy, "", pods7, 0, "scheduler-name", checklist.Pass, ""},
		{values, unnamed, configMap, "", 0, "scheduler-name", checklist.Fail, ""},
		{values, jsonPolicy, configMap, "", 0, "scheduler-name", checklist.Pass, ""},
		{values, runner, configMap, "", 0, "scheduler-name", checklist.Pass, ""},
		{values, runner, configMap, "", 0, "policy-no-grace", checklist.Fail, ""},
		{kw("35"), policy, "", "", 30, "grace-below-kill-wait", checklist.Fail, "36"},
		{kw("36"), policy, "", "", 30, "grace-below-kill-wait", checklist.Pass, ""},
		{kw("60"), policy, "", "", 30, "grace-below-kill-wait", checklist.Pass, ""},
		{kw("60"), policy, "", "", 300, "grace-below-kill-wait", checklist.Fail, "306"},
		{kw("330"), policy, "", "", 300, "grace-below-kill-wait", checklist.Pass, ""},
		{kw("305"), policy, "", "", 300, "grace-below-kill-wait", checklist.Fail, "330 pour les 300 s"},
		{kw(`"60"`), policy, "", "", 30, "grace-below-kill-wait", checklist.Pass, "KillWait 60 s"},
		{kw("0"), policy, "", "", 30, "grace-below-kill-wait", checklist.Fail, "KillWait vaut 0 s"},
		{noKillWait, policy, "", "", 20, "grace-below-kill-wait", checklist.Warn, ""},
		{noKillWait, policy, "", "", 30, "grace-below-kill-wait", checklist.Fail, "60 pour le délai par défaut"},
		{noKillWait, policy, "", pods7, 30, "grace-below-kill-wait", checklist.Pass, "--slurm-kill-wait"},
		{kw("90"), policy, "", pods7, 0, "kill-wait-aligned", checklist.Fail, "90"},
		{kw("90"), policy, "", pods7, 0, "kill-wait-aligned", checklist.Fail, "60s"},
		{values, policy, "", "", 0, "kill-wait-aligned", checklist.Skip, ""}, // one side only
		{values, policy, "", testenv.Edit(pods7, "=60s", "=1m"), 0, "kill-wait-aligned", checklist.Pass, "60 s"},
		{values, policy, "", testenv.Edit(pods7, "--slurm-kill-wait=60s", "--slurm-kill-wait\n            - 60s"), 0, "kill-wait-aligned", checklist.Pass, "60 s"},
		{values, ann("sunk.coreweave.com/partition: hpc-prod"), "", "", 0, "annotations", checklist.Pass, ""},
		{values, ann(`sunk.coreweave.com/partition: ""`), "", "", 0, "annotations", checklist.Fail, "vide"},
		{values, ann(`sunk.coreweave.com/user-id: "1000"`), "", "", 0, "annotations", checklist.Pass, ""},
		{values, ann("sunk.coreweave.com/user-id: 1000"), "", "", 0, "annotations", checklist.Pass, ""},
		{values, ann("sunk.coreweave.com/user-id: kim"), "", "", 0, "annotations", checklist.Fail, "UID"},
		{values, ann("sunk.coreweave.com/exclusive: user"), "", "", 0, "annotations", checklist.Pass, ""},
		{values, ann(`sunk.coreweave.com/exclusive: "yes"`), "", "", 0, "annotations", checklist.Fail, "none ou user"},
		{values, ann("sunk.coreweave.com/partitoin: hpc"), "", "", 0, "annotations", checklist.Warn, "sunk.coreweave.com/partitoin : annotation SUNK inconnue"},
		// Annotation keys are case-sensitive: another case is not SUNK's
		// annotation, so its value is not checked, and it is said ignored.
		{values, ann("Sunk.CoreWeave.com/partition: hpc"), "", "", 0, "annotations", checklist.Warn, "Sunk.CoreWeave.com/partition : la casse compte, l'ordonnanceur ignore cette clé ; écrivez sunk.coreweave.com/partition"},
		{values, ann("SUNK.COREWEAVE.COM/user-id: kim"), "", "", 0, "annotations", checklist.Warn, "écrivez sunk.coreweave.com/user-id"},
		{values, ann("Sunk.CoreWeave.com: x"), "", "", 0, "annotations", checklist.Pass, ""},
		{values, ann("team.example.com/owner: kim"), "", "", 0, "annotations", checklist.Pass, ""},
	} {
		x := Inputs{Values: []byte(c.values), Policy: []byte(c.policy), Grace: c.grace}
		if c.configMap != "" {
			x.ConfigMap = []byte(c.configMap)
		}
		if c.pods != "" {
			x.Pods = []byte(c.pods)
		}
		if got := status(t, x)[c.check]; got.Status != c.want || !strings.Contains(got.Message+"\n"+got.Fix, c.says) {
			t.Errorf("%s, grace %d, with\n%s\n%s\n%s%s: %+v", c.check, c.grace, c.values, c.policy, c.configMap, c.pods, got)
		}
	}
}

func TestScope(t *testing.T) {
	ns := func(scope string) string {
		return testenv.Edit(values, "  scope:\n    type: cluster\n", scope)
	}
	list := "  scope:\n    type: namespace\n    namespaces:\n      - sb-kim\n      - sb-lea\n"
	csv := "  scope:\n    type: namespace\n    namespaces: \"sb-kim, sb-lea\"\n"
	for _, c := range []struct {
		values    string
		sandboxes []string
		want      checklist.Status
	}{
		{values, []string{"sb-kim"}, checklist.Pass},
		{ns(list), []string{"sb-kim", "sb-lea"}, checklist.Pass},
		{ns(csv), []string{"sb-kim", "sb-lea"}, checklist.Pass},
		{ns(list), []string{"sb-kim", "sb-new"}, checklist.Fail},
		{ns(list), nil, checklist.Warn},
		{ns(""), nil, checklist.Warn},
		{ns("  scope:\n    type: partout\n"), nil, checklist.Fail},
	} {
		x := in(c.values, policy)
		x.Sandboxes = c.sandboxes
		if got := status(t, x)["scope-covers-sandboxes"]; got.Status != c.want {
			t.Errorf("%v with\n%s: %+v", c.sandboxes, c.values, got)
		}
	}
}

// TestMalformedInputs: what no check can judge is an input error that
// names the flag of the file and says what is wrong, with the line.
func TestMalformedInputs(t *testing.T) {
	pods := func(kw string) []byte {
		return []byte("items: [{spec: {containers: [{name: scheduler, args: [--slurm-kill-wait=" + kw + "]}]}}]")
	}
	for _, c := range []struct {
		x    Inputs
		says string
	}{
		{in("scheduler: [enabled", policy), "--valeurs : "},
		{in(values, "- une\n- liste\n"), "--politique : "},
		{in(testenv.Edit(values, "KillWait: 60", "KillWait: longtemps"), policy), "KillWait"},
		// slurm.conf's KillWait is a whole number of seconds without a
		// unit: slurmctld refuses "60s".
		{in(testenv.Edit(values, "KillWait: 60", "KillWait: 60s"), policy), `--valeurs : slurmConfig.KillWait est la chaîne "60s" : Slurm attend un nombre entier de secondes, sans unité`},
		{in(testenv.Edit(values, "KillWait: 60", "KillWait: 1m"), policy), `la chaîne "1m"`},
		{in(testenv.Edit(values, "KillWait: 60", "KillWait: 60.5"), policy), "le nombre 60.5"},
		{in(testenv.Edit(values, "KillWait: 60", "KillWait: -1"), policy), "le nombre -1"},
		{in(testenv.Edit(values, "KillWait: 60", "KillWait: 70000"), policy), "le nombre 70000"},
		{in(testenv.Edit(values, "KillWait: 60", "KillWait: [60]"), policy), "une liste"},
		{Inputs{Values: []byte(values), Policy: []byte(policy), Pods: pods("bientot"), Grace: 30}, "--pods : "},
		// The scheduler's flag is a duration: "60" has no unit.
		{Inputs{Values: []byte(values), Policy: []byte(policy), Pods: pods("60"), Grace: 30}, "--pods : --slurm-kill-wait=60 : une durée en secondes entières, avec son unité"},
		{Inputs{Values: []byte(values), Policy: []byte(policy), Pods: pods("60.5s"), Grace: 30}, "--slurm-kill-wait=60.5s"},
		{Inputs{Values: []byte(values), Policy: []byte(policy), ConfigMap: []byte("data:\n  scheduler.conf: \"scheduler: [\"\n"), Grace: 30}, "--configmap"},
		// A key given twice: Helm would take the later one, unseen.
		{in(values+"scheduler:\n  enabled: false\n", policy), "--valeurs : ni YAML ni JSON lisible : clé « scheduler » en double : sa seconde valeur commence à la ligne 8"},
		{in(testenv.Edit(values, "  enabled: true\n", "  enabled: true\n  enabled: false\n"), policy), "clé « enabled » en double : sa seconde valeur commence à la ligne 3"},
		{in(values, `{"base":{"spec":{"schedulerName":"a","schedulerName":"b"}}}`), "--politique : ni YAML ni JSON lisible : clé « schedulerName » en double"},
	} {
		if _, err := Check(c.x); err == nil {
			t.Errorf("accepted: %s\n%s", c.x.Values, c.x.Policy)
		} else if _, ok := err.(*InputError); !ok || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%q, want an input error that says %q", err, c.says)
		}
	}
}

// TestKeyLineInAnyFile: the first body line of a real key (its base64
// decodes to openssh-key-v1, so it is key material even alone; issue 21:
// a line from the middle of a body decodes to nothing that says so), as
// a value or a name in any of the four files, stops the check with an
// input error that names a line number and repeats nothing of it.
func TestKeyLineInAnyFile(t *testing.T) {
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	b, err := ssh.MarshalPrivateKey(ed, "kim@portable")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(pem.EncodeToMemory(b))), "\n")
	for _, l := range lines[1:2] {
		for _, dress := range []string{"scheduler:\n  name: \"%s\"\n", "x: '%s'\n", "%s: 1\n", "items:\n  - %s\n"} {
			doc := strings.Replace(dress, "%s", l, 1)
			for _, x := range []Inputs{
				in(values+doc, policy), in(values, policy+doc),
				{Values: []byte(values), Policy: []byte(policy), Pods: []byte(doc), Grace: 30},
				{Values: []byte(values), Policy: []byte(policy), ConfigMap: []byte(doc), Grace: 30},
			} {
				r, err := Check(x)
				if _, ok := err.(*InputError); !ok {
					t.Fatalf("%q: not refused: %v %+v", doc, err, r)
				}
				if strings.Contains(err.Error(), l[10:30]) || !strings.Contains(err.Error(), "ligne") {
					t.Fatalf("%q: %v", doc, err)
				}
			}
		}
	}
}

// emptyParens is a pair of parentheses with nothing (or only a
// separator) between them, or a list in them with a missing item: what
// a message built from an empty value shows (as in learner's test).
var emptyParens = regexp.MustCompile(`\(\s*[,;:]?\s*\)|\(\s*[,;]|[,;]\s*\)`)

// TestNoEmptyParentheses runs the checks over every mix of values,
// policy, pods, ConfigMap and sandbox namespaces, empty ones included,
// and holds every message, fix, text report and input error to a
// sentence without an empty "()" (cli.md).
func TestNoEmptyParentheses(t *testing.T) {
	scope := func(s string) string { return testenv.Edit(values, "  scope:\n    type: cluster\n", s) }
	valueSets := []string{
		values, "{}\n", "scheduler: {}\n",
		testenv.Edit(values, "enabled: true", `enabled: ""`),
		testenv.Edit(values, "enabled: true", "enabled: {}"),
		testenv.Edit(values, "  enabled: true\n", "  enabled: true\n  name: \"\"\n"),
		testenv.Edit(values, "KillWait: 60", "KillWait: 30"),
		scope(""), scope("  scope: {}\n"), scope("  scope:\n    type: \"\"\n"),
		scope("  scope:\n    type: namespace\n"),
		scope("  scope:\n    type: namespace\n    namespaces: []\n"),
		scope("  scope:\n    type: namespace\n    namespaces: [\"\", sb-kim, \"\"]\n"),
		scope("  scope:\n    type: namespace\n    namespaces: \",, sb-kim,\"\n"),
		scope("  scope:\n    type: namespace\n    namespaces: \"\"\n"),
	}
	policies := []string{
		policy, "{}\n", "base: {}\n",
		`{"base":{"spec":{"schedulerName":"","terminationGracePeriodSeconds":30}}}`,
		"base:\n  metadata:\n    annotations: {}\n",
		"base:\n  metadata:\n    annotations:\n      sunk.coreweave.com/partition: \"\"\n      sunk.coreweave.com/user-id: \"\"\n      sunk.coreweave.com/exclusive: \"\"\n      sunk.coreweave.com/: x\n",
	}
	podSets := []string{"", pods7, "items: []\n", "items: [{spec: {containers: [{name: scheduler, args: [--scheduler-name=]}]}}]\n"}
	configMaps := []string{"", configMap, "data: {}\n", testenv.Edit(configMap, "name: slurm-scheduler\n", "name: \"\"\n")}
	runs := 0
	for _, v := range valueSets {
		for _, p := range policies {
			for _, pods := range podSets {
				for _, cm := range configMaps {
					// The namespaces and the grace period take turns: each
					// changes one message only.
					sandboxes := [][]string{nil, {"sb-kim"}, {"sb-new", "sb-kim"}}[runs%3]
					x := Inputs{Values: []byte(v), Policy: []byte(p), Grace: []int{30, 300}[runs/3%2], Sandboxes: sandboxes}
					if pods != "" {
						x.Pods = []byte(pods)
					}
					if cm != "" {
						x.ConfigMap = []byte(cm)
					}
					runs++
					r, err := Check(x)
					if err != nil {
						if emptyParens.MatchString(err.Error()) {
							t.Fatalf("%q", err)
						}
						continue
					}
					var out strings.Builder
					checklist.WriteReport(&out, "texte", r, checklist.Style{})
					if emptyParens.MatchString(out.String()) {
						t.Fatalf("values\n%s\npolicy\n%s\npods\n%s\nconfigmap\n%s\nsandboxes %v:\n%s", v, p, pods, cm, sandboxes, out.String())
					}
				}
			}
		}
	}
	if runs < 1000 {
		t.Fatalf("only %d runs", runs)
	}
}
