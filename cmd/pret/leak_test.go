package main

import (
	"crypto/rand"
	"io/fs"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/keytest"
	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/templates"
)

// TestNoOutputQuotesKeyMaterial is the invariant of issue 10: a private
// key pasted into any file pret reads and may quote — acces.md,
// sommeil.sbatch, the Job YAML, the written answers, the SUNK files, the
// config, a template, the state file, a key file given to empreinte —
// never comes out of
// any command, in any output format, on standard output, on standard
// error or in a file pret writes. The keys are real (ed25519, RSA, ECDSA,
// in 16 forms) and mutated the way mail and editors mutate them.
func TestNoOutputQuotesKeyMaterial(t *testing.T) {
	notShort(t)
	n := testenv.Scaled(4, 12) // generated keys, each through every command
	priv, pub, err := keys.Generate(rand.Reader, "seance-novembre", []byte("une passphrase de test"))
	if err != nil {
		t.Fatal(err)
	}
	sbatchModel, _ := templates.Model("sommeil.sbatch")
	jobModel, _ := templates.Model("sommeil-job.yaml")
	answers := "La première ligne #!/bin/bash choisit bash. --job-name nomme le job. --output donne le fichier, %j le numéro. --time limite. --cpus-per-task un CPU. --mem la mémoire. hostname affiche le nœud. sleep 30 attend.\n"
	rng := mrand.New(mrand.NewPCG(13, 14))

	for i := 0; i < n; i++ {
		c := keytest.Generate(t, rng)
		home := testEnv(t)
		write := func(rel, content string) string { return put(t, home, rel, content) }
		planted := map[string]bool{}
		// The learner's own key: an OpenSSH key begins like any other.
		planted[write(".ssh/id_ed25519_romeo", string(priv))] = true
		write(".ssh/id_ed25519_romeo.pub", string(pub))
		plant := func(rel, content string) string {
			p := write(rel, content)
			planted[p] = true
			return p
		}

		type run struct {
			name  string
			stdin string
			args  []string
		}
		var runs []run
		add := func(name, stdin string, args ...string) { runs = append(runs, run{name, stdin, args}) }

		// pret valider, every format, on standard output and into a file.
		plant("rendus/kim/acces.md", c.Text)
		for _, f := range []string{"texte", "json", "junit", "csv", "sarif", "github", "html"} {
			add("valider "+f, "", "valider", "rendus", "--tous", "--format", f)
			add("valider --sortie "+f, "", "valider", "rendus", "--format", f, "--sortie", "rapport."+f)
		}
		// pret livrables: the key in one deliverable at a time.
		base := map[string]string{
			"sommeil.sbatch": string(sbatchModel), "sommeil-job.yaml": string(jobModel),
			"explication.md": answers, "lignes.md": answers, "refus.md": "Le job reste en attente : Reason=Resources.\n",
			"decision.md": "Je choisis Slurm pour ce calcul.\n", "comparaison.md": "Slurm et Kubernetes.\n",
		}
		for name := range base {
			dir := "livrables-" + strings.ReplaceAll(name, ".", "-")
			for other, content := range base {
				if other == name {
					plant(filepath.Join(dir, other), c.PlantIn(content, rng))
				} else {
					write(filepath.Join(dir, other), content)
				}
			}
			for _, f := range []string{"texte", "json", "junit"} {
				add("livrables "+name+" "+f, "", "livrables", dir, "--format", f)
			}
		}
		// pret verifier reads acces.md where pret acces writes it, and the
		// state file (its dates are quoted).
		plant("acces.md", c.Text)
		plant(".local/state/pret/etat.yaml", c.PlantIn("acces:\n  - statut: demande\n    date: 2026-10-16\n", rng))
		for _, f := range []string{"texte", "json", "junit"} {
			add("verifier "+f, "", "verifier", "--format", f)
		}
		// pret sunk: the key in each input file.
		sunkBase := map[string]string{
			"--valeurs":   "scheduler:\n  enabled: true\n  scope:\n    type: cluster\nslurmConfig:\n  KillWait: 60\n",
			"--politique": "base:\n  spec:\n    schedulerName: slurm-scheduler\n",
			"--pods":      "apiVersion: v1\nkind: List\nitems: []\n",
			"--configmap": "apiVersion: v1\nkind: ConfigMap\ndata: {}\n",
		}
		for flag := range sunkBase {
			args := []string{"sunk"}
			for other, content := range sunkBase {
				p := filepath.Join("sunk"+flag, other[2:]+".yaml")
				if other == flag {
					plant(p, c.PlantIn(content, rng))
				} else {
					write(p, content)
				}
				args = append(args, other, p)
			}
			for _, f := range []string{"texte", "json", "junit"} {
				add("sunk "+flag+" "+f, "", append(args, "--format", f)...)
			}
		}
		// The config file and a custom template.
		plant("config-cle.yaml", c.PlantIn("seance:\n  date: 2026-11-05\n", rng))
		add("config", "", "verifier", "--config", "config-cle.yaml")
		plant("modele-cle.md", c.PlantIn("# Accès\n\n- Date de la demande : {{.Date}}\n- {{.ClePublique}}\n- {{.Empreinte}}\n\n{{.Phrase}}\n", rng))
		write("config-modele.yaml", "acces:\n  modele: modele-cle.md\n  fichier: sortie/acces.md\n")
		add("template", "", "acces", "--statut", "demande", "--config", "config-modele.yaml", "--force")
		// empreinte: a key file, or standard input, that holds the text.
		plant("cle-collee.pub", c.Text)
		add("empreinte file", "", "empreinte", "cle-collee.pub")
		add("empreinte stdin", c.Text, "empreinte", "-")

		for _, r := range runs {
			res := pretIn(t, r.stdin, r.args...)
			if s := c.Leaked(res.stdout + res.stderr); s != "" {
				t.Fatalf("%s (%s %v): pret %v printed %q\nstdout:\n%s\nstderr:\n%s", r.name, c.Form.Name, c.Mut, r.args, s, res.stdout, res.stderr)
			}
			filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || planted[p] {
					return nil
				}
				b, err := os.ReadFile(p)
				if err == nil {
					if s := c.Leaked(string(b)); s != "" {
						t.Fatalf("%s (%s %v): pret %v wrote %q into %s", r.name, c.Form.Name, c.Mut, r.args, s, p)
					}
				}
				return nil
			})
		}
	}
}
