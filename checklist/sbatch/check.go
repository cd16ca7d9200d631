package sbatch

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/romeo-pret/pret/checklist"
)

// Given is what the organisers handed out: a partition and a Slurm
// account, empty when they gave none.
type Given struct {
	Partition, Account string
}

// Report is the check of one sommeil.sbatch.
type Report struct {
	Problems  []checklist.Problem
	Effective Effective
	// Explain is the script explained line by line, in French: the
	// explanation exercise 1 asks for.
	Explain []string
}

func (r *Report) add(code string, sev checklist.Severity, line int, format string, args ...any) {
	r.Problems = append(r.Problems, checklist.Problem{Code: code, Severity: sev, Message: fmt.Sprintf(format, args...), Line: line})
}

// wanted are the five options of the module and their value.
var wanted = [][2]string{{"job-name", "sommeil"}, {"output", "sommeil-%j.out"}, {"time", "00:02:00"}, {"cpus-per-task", "1"}, {"mem", "1G"}}

// Check applies the checklist of "Projet solo" to a script.
func Check(name string, data []byte, given Given) *Report {
	// A pasted key is never parsed, explained or listed as a command.
	data, leaks := checklist.Guard(data)
	s := Parse(name, data)
	r := &Report{Effective: s.Effective(), Problems: leaks}
	e := r.Effective

	if len(s.Lines) == 0 {
		r.add("sbatch-shebang", checklist.SevError, 0, "la première ligne est \"\" : le cours demande exactement #!/bin/bash")
	} else if s.Lines[0] != "#!/bin/bash" {
		r.add("sbatch-shebang", checklist.SevError, 1, "la première ligne est %q : le cours demande exactement #!/bin/bash", s.Lines[0])
	}
	if s.CRLF {
		r.add("sbatch-crlf", checklist.SevError, 0, "fins de ligne Windows (CRLF) : sbatch refuse ce script ; enregistrez-le avec des fins de ligne Unix (LF)")
	}

	for _, w := range wanted {
		canonical := "--" + w[0] + "=" + w[1]
		o, ok := s.Last(w[0])
		if !ok {
			r.add("sbatch-missing-option", checklist.SevError, 0, "%s n'est pas en vigueur : ajoutez la ligne #SBATCH %s avant hostname", canonical, canonical)
			continue
		}
		if !sameMeaning(o, e) {
			r.add("sbatch-wrong-value", checklist.SevError, o.Line, "%s ; le cours demande %s", explainOption(o), canonical)
		} else if o.Written != canonical {
			r.add("sbatch-spelling", checklist.SevWarning, o.Line, "%s veut dire la même chose que %s ; le cours l'écrit %s", o.Written, canonical, canonical)
		}
	}

	for _, ig := range s.Ignored {
		r.add("sbatch-ignored-directive", checklist.SevError, ig.Line, "ligne %d ignorée par Slurm : %s", ig.Line, ig.Why)
	}
	said := 0 // one shell variable said per line
	for _, o := range s.Options {
		if o.Line != said && strings.Contains(o.Written, "$") {
			r.add("sbatch-shell-variable", checklist.SevError, o.Line, "%s : Slurm ne remplace pas les variables du shell dans une directive ; « $ » reste du texte", o.Written)
			said = o.Line
		}
	}

	var cmds []string
	line := 0
	for _, c := range s.Commands {
		cmds = append(cmds, strings.Join(strings.Fields(c.Text), " "))
		line = cmp.Or(line, c.Line)
	}
	if strings.Join(cmds, "\n") != "hostname\nsleep 30" {
		r.add("sbatch-commands", checklist.SevError, line, "les commandes sont %q : le cours demande hostname, puis sleep 30, une par ligne", strings.Join(cmds, " ; "))
	}

	if e.TimeLimitMinutes != nil && *e.TimeLimitMinutes == 0 {
		o, _ := s.Last("time")
		r.add("sbatch-time-zero", checklist.SevError, o.Line, "%s demande l'absence de limite de temps : le cours n'utilise pas zéro", o.Written)
	}
	if _, mem := s.Last("mem"); mem {
		for _, other := range []string{"mem-per-cpu", "mem-per-gpu"} {
			if o, ok := s.Last(other); ok {
				r.add("sbatch-mem-conflict", checklist.SevError, o.Line, "--mem avec --%s : sbatch refuse le script ; gardez seulement --mem=1G", other)
			}
		}
	}
	for _, u := range []struct{ name, given, french, key string }{
		{"partition", given.Partition, "partition", "organisateurs.partition"},
		{"account", given.Account, "compte Slurm", "organisateurs.compte"},
	} {
		o, ok := s.Last(u.name)
		switch {
		case !ok:
		case u.given == "":
			r.add("sbatch-unrequested-option", checklist.SevError, o.Line, "%s : les organisateurs n'ont pas donné de %s ; retirez cette ligne tant qu'ils n'en ont pas donné (%s)", o.Written, u.french, u.key)
		case o.Value != u.given:
			r.add("sbatch-unrequested-option", checklist.SevError, o.Line, "%s : les organisateurs ont donné %s=%s", o.Written, u.name, u.given)
		}
	}
	slices.SortStableFunc(r.Problems, func(a, b checklist.Problem) int { return a.Line - b.Line })
	r.Explain = explain(s, e)
	return r
}

// sameMeaning compares what Slurm retains of o, the option in effect,
// with what the course asks.
func sameMeaning(o Option, e Effective) bool {
	switch o.Name {
	case "job-name":
		return o.Value == "sommeil"
	case "output":
		return strings.TrimPrefix(o.Value, "./") == "sommeil-%j.out"
	case "time":
		return e.TimeLimitMinutes != nil && *e.TimeLimitMinutes == 2
	case "cpus-per-task":
		return e.CPUsPerTask == 1
	}
	_, ok := ParseMem(o.Value) // "mem"
	return ok && e.MemMiB == 1024
}

func minutes(m int) string {
	switch {
	case m == 0:
		return "aucune limite"
	case m == 1:
		return "1 minute"
	case m == 60:
		return "1 heure"
	case m%60 == 0:
		return fmt.Sprintf("%d heures (%d minutes)", m/60, m)
	}
	return fmt.Sprintf("%d minutes", m)
}

// explain writes one French line per line of the script.
func explain(s *Script, e Effective) []string {
	var out []string
	for i, line := range s.Lines {
		say := func(format string, args ...any) {
			out = append(out, fmt.Sprintf("ligne %d : ", i+1)+fmt.Sprintf(format, args...))
		}
		trimmed := strings.TrimSpace(line)
		for j, o := range s.Options {
			if o.Line == i+1 {
				text := explainOption(o)
				if slices.ContainsFunc(s.Options[j+1:], func(later Option) bool { return later.Name == o.Name }) {
					text += " (remplacée plus bas par la même option)"
				}
				say("%s", text)
			}
		}
		ig := slices.IndexFunc(s.Ignored, func(ig Ignored) bool { return ig.Line == i+1 })
		switch {
		case i == 0 && line == "#!/bin/bash":
			say("#!/bin/bash : le noyau lance bash ; pour Slurm, c'est un commentaire, et les #SBATCH qui suivent comptent")
		case i == 0 && strings.HasPrefix(line, "#!"):
			say("%s : le script tourne avec %s, pas bash", line, line[2:])
		case ig >= 0:
			say("%s : ignorée par Slurm, %s", trimmed, s.Ignored[ig].Why)
		case trimmed == "" || trimmed[0] == '#':
		case strings.Join(strings.Fields(trimmed), " ") == "hostname":
			say("hostname : écrit le nom du nœud qui exécute le script, dans le fichier de sortie")
		case strings.Join(strings.Fields(trimmed), " ") == "sleep 30":
			say("sleep 30 : attend 30 secondes sans calculer ; l'allocation reste prise, squeue montre le job")
		default:
			say("%s : commande lancée par le script", trimmed)
		}
	}
	return out
}

func explainOption(o Option) string {
	switch o.Name {
	case "job-name":
		return fmt.Sprintf("%s : le nom vu dans squeue est « %s »", o.Written, o.Value)
	case "output":
		return fmt.Sprintf("%s : la sortie et les erreurs vont dans %s (Slurm remplace %%j par le numéro du job)", o.Written, o.Value)
	case "error":
		return fmt.Sprintf("%s : les erreurs vont dans %s", o.Written, o.Value)
	case "time":
		m, unlimited, ok := ParseTime(o.Value)
		switch {
		case !ok:
			return fmt.Sprintf("%s : durée que Slurm ne comprend pas ; sbatch refuse le script", o.Written)
		case unlimited:
			return fmt.Sprintf("%s : aucune limite de temps", o.Written)
		}
		return fmt.Sprintf("%s : Slurm retient %s", o.Written, minutes(m))
	case "cpus-per-task":
		return fmt.Sprintf("%s : %s CPU pour la tâche", o.Written, o.Value)
	case "mem":
		if m, ok := ParseMem(o.Value); ok {
			return fmt.Sprintf("%s : %d Mio de mémoire réelle sur le nœud", o.Written, m)
		}
		return fmt.Sprintf("%s : quantité que Slurm ne comprend pas", o.Written)
	case "partition":
		return fmt.Sprintf("%s : la partition %s, seulement si les organisateurs l'ont donnée", o.Written, o.Value)
	case "account":
		return fmt.Sprintf("%s : le compte Slurm %s, seulement si les organisateurs l'ont donné", o.Written, o.Value)
	}
	return fmt.Sprintf("%s : option transmise à Slurm", o.Written)
}
