// Package sbatch reads a batch script as sbatch does (its manual and
// src/sbatch/opt.c): which #SBATCH lines count, how they split, what
// Slurm retains.
package sbatch

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/romeo-pret/pret/checklist"
)

type Option struct {
	Name    string // the long name: "job-name", "time", …; "" for a bare word
	Value   string
	Line    int
	Written string // as written: "-J sommeil", "--time=2"
}

type Script struct {
	Name      string // the file name: Slurm's job name when none is set
	Lines     []string
	CRLF      bool
	Options   []Option       // in line order; a later one overrides an earlier one
	Ignored   map[int]string // #SBATCH-looking lines Slurm skips, and why
	Commands  []int          // the lines the shell runs
	Unmatched []int          // lines with an unmatched quote
	work      int            // lines and options looked at: TestCheckLinear counts it
}

// Parse reads a script; nothing is executed or expanded.
func Parse(name string, data []byte) *Script {
	text := string(data)
	s := &Script{Name: name, CRLF: strings.Contains(text, "\r\n"), Ignored: map[int]string{}}
	if text != "" {
		// "\n" alone is one empty line, as "\r\n" is.
		s.Lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	}
	inDirectives := true
	for i := range s.Lines {
		line := strings.TrimSuffix(s.Lines[i], "\r")
		s.Lines[i] = line
		no, trimmed := i+1, strings.TrimSpace(line)
		switch low := strings.ToLower(trimmed); {
		case inDirectives && strings.HasPrefix(line, "#SBATCH"):
			args, raws, unmatched := splitArguments(line[len("#SBATCH"):])
			if unmatched {
				s.Unmatched = append(s.Unmatched, no)
			}
			s.addOptions(no, args, raws)
		case strings.HasPrefix(low, "#sbatch") || strings.HasPrefix(low, "# sbatch"):
			why := "indentée : seule une ligne qui commence par #SBATCH en colonne 0 compte"
			switch {
			case !inDirectives:
				why = "après la première commande : Slurm a cessé de lire les directives"
			case !strings.HasPrefix(trimmed, "#SBATCH"):
				why = "écrite autrement que #SBATCH (casse ou espace) : c'est un commentaire"
			}
			s.Ignored[no] = why
		case trimmed != "" && trimmed[0] != '#':
			// opt.c stops reading directives at the first command.
			inDirectives = false
			s.Commands = append(s.Commands, no)
		}
	}
	return s
}

// splitArguments follows _get_argument in opt.c: quotes group and are
// removed, a backslash escapes, an unquoted # starts a comment. raws are
// the words as written.
func splitArguments(s string) (args, raws []string, unmatched bool) {
	var cur strings.Builder
	start := -1 // where the word read starts, -1 between words
	var quote byte
	end := func(i int) {
		if start >= 0 {
			args, raws = append(args, cur.String()), append(raws, s[start:i])
			cur.Reset()
			start = -1
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote == 0 && strings.IndexByte(" \t\r\v\f#", c) >= 0 {
			end(i)
			if c == '#' {
				return args, raws, false
			}
			continue
		}
		if start < 0 {
			start = i
		}
		switch {
		case c == '\\':
			if i++; i < len(s) {
				cur.WriteByte(s[i])
			}
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		default:
			cur.WriteByte(c)
		}
	}
	if quote != 0 {
		// sbatch stops at the open quote: its word is never an option.
		return args, raws, true
	}
	end(len(s))
	return args, raws, false
}

var short = map[byte]string{
	'J': "job-name", 'o': "output", 'e': "error", 't': "time", 'c': "cpus-per-task",
	'p': "partition", 'A': "account", 'D': "chdir", 'N': "nodes", 'n': "ntasks",
	'a': "array", 'd': "dependency", 'w': "nodelist", 'x': "exclude", 'C': "constraint",
	'q': "qos", 'G': "gpus", 'L': "licenses", 'i': "input", 'm': "distribution",
	'M': "clusters", 'S': "core-spec", 'B': "extra-node-info", 'b': "begin", 'F': "nodefile",
	'H': "hold", 'O': "overcommit", 'Q': "quiet", 'v': "verbose", 'W': "wait",
	's': "oversubscribe", 'k': "no-kill", 'I': "immediate", 'h': "help", 'V': "version",
}

// takesValue: options whose value may be the next word.
var takesValue = strings.Fields(`job-name output error time cpus-per-task partition account
	chdir nodes ntasks array dependency nodelist exclude constraint qos gpus licenses input
	distribution clusters cluster core-spec extra-node-info begin nodefile mem mem-per-cpu
	mem-per-gpu mem-bind gres gres-flags gpus-per-node gpus-per-task gpus-per-socket
	cpus-per-gpu gpu-bind gpu-freq mail-type mail-user ntasks-per-node ntasks-per-core
	ntasks-per-socket ntasks-per-gpu reservation signal time-min tmp wckey comment export
	export-file open-mode cpu-freq priority uid gid container batch threads-per-core
	cores-per-socket sockets-per-node switches network power profile deadline delay-boot
	acctg-freq bb bbf hint mcs-label mincpus prefer kill-on-invalid-dep thread-spec wrap`)

func (s *Script) addOptions(line int, args, raws []string) {
	for i := 0; i < len(args); i++ {
		a, o, has := args[i], Option{Line: line, Written: raws[i]}, true
		switch {
		case strings.HasPrefix(a, "--"):
			o.Name, o.Value, has = strings.Cut(a[2:], "=")
		case len(a) >= 2 && a[0] == '-':
			o.Name = cmp.Or(short[a[1]], a[1:2])
			o.Value, has = strings.TrimPrefix(a[2:], "="), len(a) > 2
		default:
			o.Value = a // a bare word: kept so the rules can name it
		}
		if !has && i+1 < len(args) && slices.Contains(takesValue, o.Name) {
			i++
			o.Value, o.Written = args[i], o.Written+" "+raws[i]
		}
		s.Options = append(s.Options, o)
	}
}

// Last returns the option in effect: the last one given.
func (s *Script) Last(name string) (Option, bool) {
	for i := len(s.Options) - 1; i >= 0; i-- {
		s.work++
		if s.Options[i].Name == name {
			return s.Options[i], true
		}
	}
	return Option{}, false
}

// ParseTime reads --time as Slurm's time_str2mins: m, m:s, h:m:s, d-h,
// d-h:m, d-h:m:s; seconds round up. 0, -1, INFINITE, UNLIMITED: unlimited.
func ParseTime(v string) (minutes int, unlimited bool, ok bool) {
	switch strings.ToUpper(v) {
	case "-1", "INFINITE", "UNLIMITED":
		return 0, true, true
	}
	days, rest, hasDays := strings.Cut(v, "-")
	if !hasDays {
		days, rest = "0", v
	}
	fields := append([]string{days}, strings.Split(rest, ":")...)
	// Seconds per field: after days, hours first; without, minutes
	// first unless there are three fields.
	unit := []int{86400, 3600, 60, 1}
	if !hasDays && len(fields) < 4 {
		unit = []int{0, 60, 1}
	}
	if len(fields) > len(unit) {
		return 0, false, false
	}
	secs := 0
	for i, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || strings.Trim(f, "0123456789") != "" {
			return 0, false, false
		}
		secs += n * unit[i]
	}
	m := (secs + 59) / 60
	return m, m == 0, true
}

// parseCount reads a count as Slurm's parse_int does with strtol: blanks
// before, a sign, digits and nothing after, 1 or more in a C int.
func parseCount(v string) (n int, ok bool) {
	i, err := strconv.ParseInt(strings.TrimLeft(v, " \t\n\v\f\r"), 10, 32)
	return int(i), err == nil && i >= 1
}

// ParseMem reads --mem as Slurm's str_to_mbytes: a whole number of MiB,
// or K (rounded up), M, G, T after it; what follows is not read.
func ParseMem(v string) (mib int64, ok bool) {
	suffix := strings.TrimLeft(v, "0123456789")
	n, err := strconv.ParseInt(v[:len(v)-len(suffix)], 10, 64)
	unit, known := map[string]int64{"": 1, "K": 0, "M": 1, "G": 1 << 10, "T": 1 << 20}[strings.ToUpper(suffix[:min(len(suffix), 1)])]
	if err != nil || !known {
		return 0, false
	}
	if unit == 0 { // K, rounded up
		return (n + 1023) / 1024, true
	}
	return n * unit, true
}

// Effective is what Slurm will retain from the script (livrables.md).
type Effective = checklist.SbatchEffective

// Effective is what Slurm retains, and whether sbatch accepts it.
func (s *Script) Effective() Effective {
	ignored := append([]int{}, slices.Sorted(maps.Keys(s.Ignored))...)
	e := Effective{JobName: s.Name, Output: "slurm-%j.out", CPUsPerTask: 1, IgnoredDirectives: ignored}
	// sbatch refuses a script without #!, with CRLF or an unmatched quote.
	accepted := len(s.Lines) > 0 && strings.HasPrefix(s.Lines[0], "#!") && !s.CRLF && len(s.Unmatched) == 0
	for name, dst := range map[string]*string{"job-name": &e.JobName, "output": &e.Output} {
		if o, ok := s.Last(name); ok {
			*dst = o.Value
		}
	}
	if o, ok := s.Last("time"); ok {
		m, _, valid := ParseTime(o.Value)
		if valid {
			e.TimeLimitMinutes = &m
		}
		accepted = accepted && valid
	}
	if o, ok := s.Last("cpus-per-task"); ok {
		n, valid := parseCount(o.Value)
		if valid {
			e.CPUsPerTask = n
		}
		accepted = accepted && valid
	}
	if o, ok := s.Last("mem"); ok {
		e.MemMiB, ok = ParseMem(o.Value)
		accepted = accepted && ok
	}
	// Two ways of asking for memory at once: sbatch refuses the script.
	mems := 0
	for _, name := range []string{"mem", "mem-per-cpu", "mem-per-gpu"} {
		if _, ok := s.Last(name); ok {
			mems++
		}
	}
	e.AcceptedBySbatch = accepted && mems <= 1
	return e
}

// Given is what the organisers handed out, empty when they gave none.
type Given struct {
	Partition, Account string
}

type Report struct {
	Problems  checklist.Problems
	Effective Effective
	Explain   []string // line by line, in French: what exercise 1 asks
	work      int      // the script's work, for TestCheckLinear
}

var wanted = [][2]string{{"job-name", "sommeil"}, {"output", "sommeil-%j.out"}, {"time", "00:02:00"}, {"cpus-per-task", "1"}, {"mem", "1G"}}

// Check applies the checklist of "Projet solo"; a pasted key is never
// parsed, explained or listed as a command.
func Check(name string, data []byte, given Given) *Report {
	data, leaks := checklist.Guard(data)
	s := Parse(name, data)
	r := &Report{Effective: s.Effective(), Problems: leaks}
	e := r.Effective
	head := s.Lines[:min(len(s.Lines), 1)] // the first line, if any
	if first := strings.Join(head, ""); first != "#!/bin/bash" {
		r.Problems.Add(checklist.CodeSbatchShebang, checklist.SevError, len(head), "la première ligne est %q : le cours demande exactement #!/bin/bash", first)
	}
	if s.CRLF {
		r.Problems.Add(checklist.CodeSbatchCRLF, checklist.SevError, 0, "fins de ligne Windows (CRLF) : sbatch refuse ce script ; enregistrez-le avec des fins de ligne Unix (LF)")
	}
	for _, w := range wanted {
		canonical := "--" + w[0] + "=" + w[1]
		o, ok := s.Last(w[0])
		if !ok {
			r.Problems.Add(checklist.CodeSbatchMissingOption, checklist.SevError, 0, "%s n'est pas en vigueur : ajoutez la ligne #SBATCH %s avant hostname", canonical, canonical)
			continue
		}
		if !sameMeaning(o, e) {
			r.Problems.Add(checklist.CodeSbatchWrongValue, checklist.SevError, o.Line, "%s ; le cours demande %s", explainOption(o), canonical)
		} else if o.Written != canonical {
			r.Problems.Add(checklist.CodeSbatchSpelling, checklist.SevWarning, o.Line, "%s veut dire la même chose que %s ; le cours l'écrit %s", o.Written, canonical, canonical)
		}
	}
	for _, no := range e.IgnoredDirectives {
		r.Problems.Add(checklist.CodeSbatchIgnoredDirective, checklist.SevError, no, "ligne %d ignorée par Slurm : %s", no, s.Ignored[no])
	}
	said := 0 // one shell variable said per line
	for _, o := range s.Options {
		if o.Line != said && strings.Contains(o.Written, "$") {
			r.Problems.Add(checklist.CodeSbatchShellVariable, checklist.SevError, o.Line, "%s : Slurm ne remplace pas les variables du shell dans une directive ; « $ » reste du texte", o.Written)
			said = o.Line
		}
	}
	var cmds []string
	line := 0 // the first command's, if any
	for _, no := range s.Commands {
		line = cmp.Or(line, no)
		cmds = append(cmds, strings.Join(strings.Fields(s.Lines[no-1]), " "))
	}
	if strings.Join(cmds, "\n") != "hostname\nsleep 30" {
		r.Problems.Add(checklist.CodeSbatchCommands, checklist.SevError, line, "les commandes sont %q : le cours demande hostname, puis sleep 30, une par ligne", strings.Join(cmds, " ; "))
	}
	if e.TimeLimitMinutes != nil && *e.TimeLimitMinutes == 0 {
		o, _ := s.Last("time")
		r.Problems.Add(checklist.CodeSbatchTimeZero, checklist.SevError, o.Line, "%s demande l'absence de limite de temps : le cours n'utilise pas zéro", o.Written)
	}
	// sbatch takes one of the three ways of asking for memory.
	_, mem := s.Last("mem")
	perCPU, cpu := s.Last("mem-per-cpu")
	if perGPU, gpu := s.Last("mem-per-gpu"); gpu && (mem || cpu) {
		r.Problems.Add(checklist.CodeSbatchMemConflict, checklist.SevError, perGPU.Line, "%s avec --mem ou --mem-per-cpu : sbatch refuse le script ; gardez seulement --mem=1G", perGPU.Written)
	}
	if cpu && mem {
		r.Problems.Add(checklist.CodeSbatchMemConflict, checklist.SevError, perCPU.Line, "%s avec --mem : sbatch refuse le script ; gardez seulement --mem=1G", perCPU.Written)
	}
	for _, no := range s.Unmatched {
		r.Problems.Add(checklist.CodeSbatchRefusedDirective, checklist.SevError, no, "un guillemet ouvert n'est pas refermé ; sbatch refuse le script : fermez-le ou retirez-le")
	}
	for _, u := range []struct{ name, given, french, key string }{
		{"partition", given.Partition, "partition", "organisateurs.partition"},
		{"account", given.Account, "compte Slurm", "organisateurs.compte"},
	} {
		o, ok := s.Last(u.name)
		switch {
		case !ok:
		case u.given == "":
			r.Problems.Add(checklist.CodeSbatchUnrequestedOption, checklist.SevError, o.Line, "%s : les organisateurs n'ont pas donné de %s ; retirez cette ligne tant qu'ils n'en ont pas donné (%s)", o.Written, u.french, u.key)
		case o.Value != u.given:
			r.Problems.Add(checklist.CodeSbatchUnrequestedOption, checklist.SevError, o.Line, "%s : les organisateurs ont donné %s=%s", o.Written, u.name, u.given)
		}
	}
	slices.SortStableFunc(r.Problems, func(a, b checklist.Problem) int { return a.Line - b.Line })
	r.Explain = explain(s, e)
	r.work = s.work
	return r
}

// sameMeaning: does Slurm retain from o, in effect, what the course asks?
func sameMeaning(o Option, e Effective) bool {
	switch o.Name {
	case "job-name":
		return o.Value == "sommeil"
	case "output":
		return strings.TrimPrefix(o.Value, "./") == "sommeil-%j.out"
	case "time":
		return e.TimeLimitMinutes != nil && *e.TimeLimitMinutes == 2
	case "cpus-per-task":
		n, ok := parseCount(o.Value)
		return ok && n == 1
	}
	_, ok := ParseMem(o.Value) // "mem"
	return ok && e.MemMiB == 1024
}

func explain(s *Script, e Effective) []string {
	// One pass from the end marks each option a later one of its name
	// overrides, and one pass down the lines takes the options in turn:
	// a look ahead from every option, or a scan of every option at every
	// line, made 86,000 directives a quadratic minute.
	replaced := make([]bool, len(s.Options))
	seen := map[string]bool{}
	for j := len(s.Options) - 1; j >= 0; j-- {
		s.work++
		name := s.Options[j].Name
		replaced[j] = name != "" && seen[name]
		seen[name] = true
	}
	var out []string
	j := 0 // the first option not yet explained; options are in line order
	u := 0 // the same in Unmatched
	for i, line := range s.Lines {
		s.work++
		say := func(format string, args ...any) {
			out = append(out, fmt.Sprintf("ligne %d : ", i+1)+fmt.Sprintf(format, args...))
		}
		trimmed := strings.TrimSpace(line)
		for ; j < len(s.Options) && s.Options[j].Line == i+1; j++ {
			s.work++
			text := explainOption(s.Options[j])
			if replaced[j] {
				text += " (remplacée plus bas par la même option)"
			}
			say("%s", text)
		}
		if u < len(s.Unmatched) && s.Unmatched[u] == i+1 {
			u++
			say("un guillemet ouvert n'est pas refermé : sbatch refuse le script")
		}
		switch {
		case i == 0 && line == "#!/bin/bash":
			say("#!/bin/bash : le noyau lance bash ; pour Slurm, c'est un commentaire, et les #SBATCH qui suivent comptent")
		case i == 0 && strings.HasPrefix(line, "#!"):
			say("%s : le script tourne avec %s, pas bash", line, line[2:])
		case s.Ignored[i+1] != "":
			say("%s : ignorée par Slurm, %s", trimmed, s.Ignored[i+1])
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
		kept := fmt.Sprintf("%d minutes", m)
		switch {
		case !ok:
			return fmt.Sprintf("%s : durée que Slurm ne comprend pas ; sbatch refuse le script", o.Written)
		case unlimited:
			return fmt.Sprintf("%s : aucune limite de temps", o.Written)
		case m == 1:
			kept = "1 minute"
		case m == 60:
			kept = "1 heure"
		case m%60 == 0:
			kept = fmt.Sprintf("%d heures (%d minutes)", m/60, m)
		}
		return fmt.Sprintf("%s : Slurm retient %s", o.Written, kept)
	case "cpus-per-task":
		if n, ok := parseCount(o.Value); ok {
			return fmt.Sprintf("%s : %d CPU pour la tâche", o.Written, n)
		}
		return fmt.Sprintf("%s : pas un nombre de CPU que sbatch accepte (un entier, 1 ou plus) ; sbatch refuse le script", o.Written)
	case "mem":
		if m, ok := ParseMem(o.Value); ok {
			return fmt.Sprintf("%s : %d Mio de mémoire réelle sur le nœud", o.Written, m)
		}
		return fmt.Sprintf("%s : quantité que Slurm ne comprend pas ; sbatch refuse le script", o.Written)
	case "partition":
		return fmt.Sprintf("%s : la partition %s, seulement si les organisateurs l'ont donnée", o.Written, o.Value)
	case "account":
		return fmt.Sprintf("%s : le compte Slurm %s, seulement si les organisateurs l'ont donné", o.Written, o.Value)
	}
	return fmt.Sprintf("%s : option transmise à Slurm", o.Written)
}
