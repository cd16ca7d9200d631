package livrables

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/templates"
	"sigs.k8s.io/yaml"
)

func codes(ps []checklist.Problem) string {
	var c []string
	for _, p := range ps {
		c = append(c, string(p.Code))
	}
	sort.Strings(c)
	return strings.Join(c, ",")
}

func job(old, new string) string {
	j, _ := templates.Model("sommeil-job.yaml")
	return testenv.Edit(string(j), old, new)
}

func TestJob(t *testing.T) {
	deployment := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: sommeil
spec:
  replicas: 1
`
	for _, c := range []struct{ name, yaml, want string }{
		{"the notes' Job", job("", ""), ""},
		{"exercise 3: backoffLimit 1", job("backoffLimit: 0", "backoffLimit: 1"), ""},
		{"not YAML", "apiVersion: [batch/v1\n", "yaml-syntax"},
		{"a type error", job("backoffLimit: 0", "backoffLimit: zéro"), "yaml-syntax"},
		{"restartpolicy in lower case", job("restartPolicy: Never", "restartpolicy: Never"), "job-restart-policy,yaml-unknown-field"},
		{"unknown field", job("  backoffLimit: 0", "  backoffLimit: 0\n  retries: 2"), "yaml-unknown-field"},
		{"a Deployment", deployment, "job-kind"},
		{"another kind", job("kind: Job", "kind: CronJob"), "job-kind"},
		{"api version", job("batch/v1", "batch/v1beta1"), "job-api-version"},
		{"name", job("name: sommeil\nspec", "name: dodo\nspec"), "job-name"},
		{"backoffLimit 6", job("backoffLimit: 0", "backoffLimit: 6"), "job-backoff-limit"},
		{"backoffLimit absent", job("  backoffLimit: 0\n", ""), "job-backoff-limit"},
		{"deadline", job("activeDeadlineSeconds: 120", "activeDeadlineSeconds: 60"), "job-deadline"},
		{"deadline absent", job("  activeDeadlineSeconds: 120\n", ""), "job-deadline"},
		{"OnFailure", job("restartPolicy: Never", "restartPolicy: OnFailure"), "job-restart-policy"},
		{"command as one string", job("            - sh\n            - -c\n            - hostname; sleep 30", "            - hostname; sleep 30"), "job-command"},
		{"other image", job("busybox:1.36", "alpine:3.20"), "job-image"},
		{"priority class", job("      restartPolicy: Never", "      restartPolicy: Never\n      priorityClassName: haute"), "job-priority-class"},
		{"Kueue label", job("  name: sommeil\n", "  name: sommeil\n  labels:\n    kueue.x-k8s.io/queue-name: equipe\n"), "job-queue-label"},
		// The API's own decoder would compute 10^9999991999999999 here.
		{"a huge quantity exponent is read, not computed", job("            - hostname; sleep 30", "            - hostname; sleep 30\n          resources:\n            limits:\n              cpu: \"9e9999991999999999\""), ""},
		{"a quantity the API refuses", job("            - hostname; sleep 30", "            - hostname; sleep 30\n          resources:\n            limits:\n              cpu: Pi"), "yaml-syntax"},
		{"suspended", job("  backoffLimit: 0", "  backoffLimit: 0\n  suspend: true"), "job-suspend"},
		// kubectl apply -f creates every document; an empty one, nothing.
		{"a second document", job("", "") + "---\n" + deployment, "yaml-second-document"},
		{"a Deployment after two separators", job("", "") + "---\n---\n" + deployment, "yaml-second-document"},
		{"a second document that does not parse", job("", "") + "---\napiVersion: [v1\n", "yaml-second-document"},
		{"an unparseable third document", job("", "") + "---\n" + deployment + "---\n[x\n", "yaml-second-document"},
		{"a last ---", job("", "") + "---\n", ""},
		{"a --- first", "---\n" + job("", ""), ""},
		{"... closes the document", job("", "") + "...\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ps := CheckJob([]byte(c.yaml))
			if got := codes(ps); got != c.want {
				t.Errorf("codes %q, want %q: %+v", got, c.want, ps)
			}
		})
	}
	// A refused value is named by its path, list indices included.
	for doc, want := range map[string]string{
		job("backoffLimit: 0", "backoffLimit: 1.5"): "« spec.backoffLimit » devrait être un nombre entier",
		job("            - hostname; sleep 30", "            - hostname; sleep 30\n          ports:\n          - containerPort: \"80\""):              "« spec.template.spec.containers[0].ports[0].containerPort » devrait être un nombre entier",
		job("            - hostname; sleep 30", "            - hostname; sleep 30\n          resources:\n            limits:\n              cpu: Pi"): "« spec.template.spec.containers[0].resources.limits.cpu » devrait être une quantité",
		job("restartPolicy: Never", "restartpolicy: Never"): `champ inconnu de l'API Job (la casse compte) : "spec.template.spec.restartpolicy"`,
	} {
		if ps := CheckJob([]byte(doc)); len(ps) == 0 || !strings.Contains(ps[0].Message, want) {
			t.Errorf("want %q in %+v", want, ps)
		}
	}
	if ps := CheckJob([]byte(deployment)); !strings.Contains(ps[0].Message, "Always") {
		t.Errorf("a Deployment must be explained: %q", ps[0].Message)
	}
	// The second document is named by the line of its "---".
	two := job("", "") + "# un commentaire\n---\n" + deployment
	if ps := CheckJob([]byte(two)); len(ps) != 1 || ps[0].Line != strings.Count(job("", ""), "\n")+2 || !strings.Contains(ps[0].Message, "kubectl apply -f") {
		t.Errorf("second document: %+v", ps)
	}
	if ps := CheckJob([]byte(job("", "") + "---\napiVersion: [v1\n")); len(ps) != 1 || !strings.Contains(ps[0].Message, "liste entre crochets non fermée") {
		t.Errorf("a second document that does not parse: %+v", ps)
	}
}

const explanation = `La ligne #!/bin/bash dit au noyau de lancer bash.
--job-name=sommeil fixe le nom vu dans squeue.
--output=sommeil-%j.out : Slurm remplace %j par le numéro.
--time=00:02:00 pose 2 minutes.
--cpus-per-task=1 demande un CPU.
--mem=1G demande un gibioctet.
hostname écrit le nom du nœud.
sleep 30 attend 30 secondes.
`

func TestAnswers(t *testing.T) {
	for _, c := range []struct {
		name  string
		check func(string) []checklist.Problem
		text  string
		want  string
	}{
		{"explication in order", CheckExplanation, explanation, ""},
		{"explication missing a line", CheckExplanation, testenv.Edit(explanation, "--cpus-per-task=1 demande un CPU.\n", ""), "explication-order"},
		{"explication out of order", CheckExplanation, "sleep 30 attend.\n" + explanation[:strings.Index(explanation, "sleep")], "explication-order"},
		{"lignes answers", CheckLignesAnswers, explanation + "\nUne option après hostname ne compte plus.\n--time=00:00:30 vaut 1 minute.\nSans --error, tout va dans le fichier de --output.\n", ""},
		{"lignes answers absent", CheckLignesAnswers, explanation, "lignes-answers,lignes-answers,lignes-answers"},
		{"refus", CheckRefusal, "Le Deployment relance le conteneur : une boucle. Kueue n'est pas installé.", ""},
		{"refus without Kueue", CheckRefusal, "Le Deployment redémarre le conteneur.", "refus-kueue"},
		{"refus without restart", CheckRefusal, "Je ne l'applique pas. Kueue non installé.", "refus-restart"},
		{"decision", CheckDecision, "1. Les jobs 51 et 52 restent PD.\n2. scancel 51\n", ""},
		{"decision with -u", CheckDecision, "scancel -u kim puis scancel 51", "decision-scancel"},
		{"decision without the command", CheckDecision, "On arrête le 51.", "decision-scancel"},
		{"comparaison", CheckComparison, "# Comparaison\n\nDémarrage : sbatch et kubectl apply.\n\nArrêt : --time et activeDeadlineSeconds.\n\nSortie : le fichier et kubectl logs.\n\nSecond passage : un nouvel sbatch, delete puis apply. Kueue n'est pas installé.\n", ""},
		{"comparaison three paragraphs", CheckComparison, "Démarrage.\n\nArrêt.\n\nSortie, second passage, et Kueue n'est pas installé.\n", "comparaison-paragraphs"},
		{"comparaison without Kueue last", CheckComparison, "Kueue.\n\nA.\n\nB.\n\nC.\n", "comparaison-kueue"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ps := c.check(c.text)
			if got := codes(ps); got != c.want {
				t.Errorf("codes %q, want %q: %+v", got, c.want, ps)
			}
			for _, p := range ps {
				if !strings.Contains(p.Message, "à relire") {
					t.Errorf("a check of form says so: %q", p.Message)
				}
			}
		})
	}
}

func TestFolder(t *testing.T) {
	dir := t.TempDir()
	res := Check(dir, Options{})
	if got := codes(append(res[0].Problems, res[1].Problems...)); got != "explication-missing,sbatch-missing" || len(res) != 2 {
		t.Fatalf("empty folder: %+v", res)
	}
	if res[0].Path != filepath.Join(dir, "sommeil.sbatch") || res[1].Path != filepath.Join(dir, "explication.md") {
		t.Fatalf("expected paths: %+v", res)
	}
	model, _ := templates.Model("sommeil.sbatch")
	os.WriteFile(filepath.Join(dir, "sommeil.sbatch"), model, 0o644)
	os.WriteFile(filepath.Join(dir, "lignes.md"), []byte(explanation), 0o644)
	os.WriteFile(filepath.Join(dir, "decision.md"), []byte("scancel 51"), 0o644)
	res = Check(dir, Options{})
	if len(res) != 3 || !res[0].Valid || res[0].Effective.MemMiB != 1024 || len(res[0].Explain) != 8 {
		t.Fatalf("%+v", res)
	}
	if !res[1].Valid || codes(res[1].Problems) != "lignes-answers,lignes-answers,lignes-answers" {
		t.Fatalf("lignes.md: %+v", res[1])
	}
}

// TestUnreadableSaysWhy: a deliverable pret cannot read is an error
// that says why, in French, as pret sunk and pret empreinte do.
func TestUnreadableSaysWhy(t *testing.T) {
	for _, c := range []struct {
		name, file string
		make       func(t *testing.T, path string)
		want       string
	}{
		{"a folder", "sommeil.sbatch", func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}, "ce n'est pas un fichier ordinaire"},
		{"a link to a device", "sommeil-job.yaml", func(t *testing.T, path string) {
			if runtime.GOOS == "windows" {
				t.Skip("NUL, le périphérique nul de Windows, n'est pas un fichier qu'un lien peut nommer")
			}
			if err := os.Symlink(os.DevNull, path); err != nil {
				t.Skipf("pas de lien symbolique ici : %v", err)
			}
		}, "ce n'est pas un fichier ordinaire"},
		{"no permission", "explication.md", func(t *testing.T, path string) {
			if os.Geteuid() == 0 || runtime.GOOS == "windows" {
				t.Skip("root, et Windows, lisent un fichier en mode 000")
			}
			if err := os.WriteFile(path, []byte(explanation), 0o000); err != nil {
				t.Fatal(err)
			}
		}, "permission refusée"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.make(t, filepath.Join(dir, c.file))
			for _, r := range Check(dir, Options{}) {
				if filepath.Base(r.Path) != c.file {
					continue
				}
				if got := codes(r.Problems); got != "unreadable" || r.Valid || !strings.Contains(r.Problems[0].Message, "fichier illisible : "+c.want) {
					t.Errorf("%s: %+v", c.file, r)
				}
				return
			}
			t.Errorf("%s not reported", c.file)
		})
	}
}

// fakeSlurm answers like Slurm's clients and records every call.
type fakeSlurm struct {
	calls   []string
	sinfo   bool
	rAfter  int // squeue shows R after this many polls
	polls   int
	outFile string
}

func (f *fakeSlurm) run(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
	f.calls = append(f.calls, name+" "+strings.Join(args, " "))
	switch name {
	case "sinfo":
		if !f.sinfo {
			return nil, errors.New("introuvable")
		}
		return []byte("debug*\n"), nil
	case "sbatch":
		return []byte("Submitted batch job 17\n"), nil
	case "squeue":
		f.polls++
		st := "PD"
		where := "(Resources)"
		if f.polls > f.rAfter && f.rAfter >= 0 {
			st, where = "R", "noeud7"
			if f.outFile != "" {
				os.WriteFile(filepath.Join(dir, f.outFile), []byte("noeud7\n"), 0o644)
			}
		}
		return []byte("JOBID PARTITION NAME USER ST TIME NODES NODELIST(REASON)\n17 debug sommeil kim " + st + " 0:01 1 " + where + "\n"), nil
	}
	return nil, errors.New("unexpected command " + name)
}

func TestSubmitter(t *testing.T) {
	submit := func(f *fakeSlurm) (string, error) {
		var out bytes.Buffer
		s := Submitter{Dir: t.TempDir(), Output: "sommeil-%j.out", Out: &out, Run: f.run, Hostname: "portable", Timeout: 300 * time.Millisecond, Poll: 10 * time.Millisecond}
		err := s.Submit(context.Background())
		return out.String(), err
	}
	f := &fakeSlurm{}
	if _, err := submit(f); !errors.Is(err, ErrNoSlurm) || len(f.calls) != 1 {
		t.Fatalf("no sinfo: %v %v", err, f.calls)
	}
	f = &fakeSlurm{sinfo: true, rAfter: 2, outFile: "sommeil-17.out"}
	out, err := submit(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Submitted batch job 17", "17 debug sommeil kim R", "sommeil-17.out : noeud7", "diffère de cette machine (portable)", "Nœud du job : noeud7"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	f = &fakeSlurm{sinfo: true, rAfter: -1}
	if _, err := submit(f); err == nil || !strings.Contains(err.Error(), "pret ne l'annule pas") {
		t.Fatalf("pending job: %v", err)
	}
	for _, fs := range []*fakeSlurm{f} {
		sbatchCalls := 0
		for _, c := range fs.calls {
			if strings.HasPrefix(c, "scancel") {
				t.Fatalf("pret ran scancel: %v", fs.calls)
			}
			if strings.HasPrefix(c, "sbatch") {
				sbatchCalls++
			}
		}
		if sbatchCalls != 1 {
			t.Fatalf("%d submissions", sbatchCalls)
		}
	}
	f = &fakeSlurm{sinfo: true, rAfter: 0}
	if _, err := submit(f); err == nil || !strings.Contains(err.Error(), "hostname") {
		t.Fatalf("no output line: %v", err)
	}
}

func FuzzCheckJob(f *testing.F) {
	f.Add([]byte(job("", "")))
	f.Add([]byte("kind: Deployment\n"))
	f.Add([]byte("a: &x [*x]\n"))
	codeRE := regexp.MustCompile(`^(yaml|job)-[a-z-]+$`)
	f.Fuzz(func(t *testing.T, data []byte) {
		ps := CheckJob(data)
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, p := range ps {
			// Only a second document has a line: the others' are in
			// their message, or have none.
			if p.Line != 0 && (p.Code != checklist.CodeYAMLSecondDocument || p.Line > lines) {
				t.Fatalf("problem line outside the contract: %+v", p)
			}
			if !codeRE.MatchString(string(p.Code)) || p.Message == "" ||
				p.Severity != checklist.SevError && p.Severity != checklist.SevWarning {
				t.Fatalf("problem outside the contract: %+v", p)
			}
		}
		// JSON is YAML: the same Job written as JSON gets the same
		// verdict, so nothing depends on how the YAML was spelled. The
		// JSON holds the first document only.
		ps = slices.DeleteFunc(ps, func(p checklist.Problem) bool { return p.Code == checklist.CodeYAMLSecondDocument })
		js, err := yaml.YAMLToJSONStrict(data)
		if err != nil {
			if codes(ps) != "yaml-syntax" {
				t.Fatalf("YAML the converter refuses, yet codes %q", codes(ps))
			}
			return
		}
		if got, want := codes(CheckJob(js)), codes(ps); got != want {
			t.Fatalf("as JSON %s: codes %q, as YAML %q", js, got, want)
		}
	})
}

// TestCheckJobLinear: the documents after the first are read too, so
// twice the file costs at most about twice the allocations, whatever
// the shape (a quadratic reader costs four times). Nothing is timed.
func TestCheckJobLinear(t *testing.T) {
	for _, tok := range []string{"---\n", "---\n# rien\n", "- a\n", "a: b\n---\n", "&a x\n"} {
		cost := func(n int) uint64 {
			data := []byte(job("", "") + strings.Repeat(tok, n/len(tok)))
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			CheckJob(data)
			runtime.ReadMemStats(&after)
			return after.Mallocs - before.Mallocs
		}
		a1, a2 := cost(128<<10), cost(256<<10)
		if float64(a2) > 2.6*float64(a1)+64 {
			t.Errorf("%q: %d allocations at 128 KiB, %d at twice", tok, a1, a2)
		}
	}
}
