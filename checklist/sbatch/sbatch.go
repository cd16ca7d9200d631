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
	"unicode/utf8"

	"github.com/romeo-pret/pret/checklist"
)

type Option struct {
	Name    string // the long name: "job-name", "time", …; "" for a bare word
	Value   string
	Line    int
	Written string // as written: "-J sommeil", "--time=2"
	Refused string // why sbatch refuses it, in French; "" when it does not
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
	var words []word
	for i := range s.Lines {
		line := strings.TrimSuffix(s.Lines[i], "\r")
		s.Lines[i] = line
		no, trimmed := i+1, strings.TrimSpace(line)
		switch low := strings.ToLower(trimmed); {
		case inDirectives && strings.HasPrefix(line, "#SBATCH"):
			w, unmatched := splitArguments(line[len("#SBATCH"):], no)
			if unmatched {
				s.Unmatched = append(s.Unmatched, no)
			}
			words = append(words, w...)
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
	s.readOptions(words)
	return s
}

// word is one word of the directives, as getopt will see it.
type word struct {
	text, raw string // raw: as written, quotes and backslashes kept
	line      int
}

// splitArguments follows _get_argument in opt.c: blanks separate words,
// quotes group and are removed, a backslash keeps the next character but
// a blank (which still ends the word), an unquoted # starts a comment.
// An empty word ends the line, as it ends sbatch's loop: the rest of
// the line after "" or a comment is never read.
func splitArguments(s string, line int) (words []word, unmatched bool) {
	const blank = " \t\n\v\f\r"
	for i := 0; ; {
		for i < len(s) && strings.IndexByte(blank, s[i]) >= 0 {
			i++
		}
		if i == len(s) {
			return words, false
		}
		var cur strings.Builder
		var quote byte
		escaped := false
		start := i
	word:
		for ; i < len(s) && (quote != 0 || strings.IndexByte(blank, s[i]) < 0); i++ {
			switch c := s[i]; {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
				continue
			case quote != 0 && c == quote:
				quote = 0
				continue
			case quote != 0:
			case c == '"' || c == '\'':
				quote = c
				continue
			case c == '#':
				break word
			}
			cur.WriteByte(s[i])
		}
		if quote != 0 {
			// sbatch stops at the open quote: its word is never an option.
			return words, true
		}
		if cur.Len() == 0 {
			return words, false
		}
		words = append(words, word{cur.String(), s[start:i], line})
	}
}

// takes says whether an option takes a value.
type takes uint8

const (
	noValue takes = iota
	needsValue
	mayTakeValue // only glued: --name=value, -kvalue
)

// longOptions is the getopt_long table of sbatch in Slurm 22.05, the
// Slurm the tests compare with: the options of its manual, plus cluster,
// context, ntasks-per-tres and tasks-per-node, which the table holds
// without the manual naming them (TestOptionTableAgainstRealSlurm).
var longOptions = map[string]takes{
	"account": needsValue, "acctg-freq": needsValue, "array": needsValue, "batch": needsValue,
	"bb": needsValue, "bbf": needsValue, "begin": needsValue, "chdir": needsValue,
	"cluster": needsValue, "cluster-constraint": needsValue, "clusters": needsValue,
	"comment": needsValue, "constraint": needsValue, "container": needsValue, "context": needsValue,
	"contiguous": noValue, "core-spec": needsValue, "cores-per-socket": needsValue,
	"cpu-freq": needsValue, "cpus-per-gpu": needsValue, "cpus-per-task": needsValue,
	"deadline": needsValue, "delay-boot": needsValue, "dependency": needsValue,
	"distribution": needsValue, "error": needsValue, "exclude": needsValue,
	"exclusive": mayTakeValue, "export": needsValue, "export-file": needsValue,
	"extra-node-info": needsValue, "get-user-env": mayTakeValue, "gid": needsValue,
	"gpu-bind": needsValue, "gpu-freq": needsValue, "gpus": needsValue,
	"gpus-per-node": needsValue, "gpus-per-socket": needsValue, "gpus-per-task": needsValue,
	"gres": needsValue, "gres-flags": needsValue, "help": noValue, "hint": needsValue,
	"hold": noValue, "ignore-pbs": noValue, "input": needsValue, "job-name": needsValue,
	"kill-on-invalid-dep": needsValue, "licenses": needsValue, "mail-type": needsValue,
	"mail-user": needsValue, "mcs-label": needsValue, "mem": needsValue, "mem-bind": needsValue,
	"mem-per-cpu": needsValue, "mem-per-gpu": needsValue, "mincpus": needsValue,
	"network": needsValue, "nice": mayTakeValue, "no-kill": mayTakeValue, "no-requeue": noValue,
	"nodefile": needsValue, "nodelist": needsValue, "nodes": needsValue, "ntasks": needsValue,
	"ntasks-per-core": needsValue, "ntasks-per-gpu": needsValue, "ntasks-per-node": needsValue,
	"ntasks-per-socket": needsValue, "ntasks-per-tres": needsValue, "open-mode": needsValue,
	"output": needsValue, "overcommit": noValue, "oversubscribe": noValue, "parsable": noValue,
	"partition": needsValue, "power": needsValue, "prefer": needsValue, "priority": needsValue,
	"profile": needsValue, "propagate": mayTakeValue, "qos": needsValue, "quiet": noValue,
	"reboot": noValue, "requeue": noValue, "reservation": needsValue, "signal": needsValue,
	"sockets-per-node": needsValue, "spread-job": noValue, "switches": needsValue,
	"tasks-per-node": needsValue, "test-only": noValue, "thread-spec": needsValue,
	"threads-per-core": needsValue, "time": needsValue, "time-min": needsValue, "tmp": needsValue,
	"uid": needsValue, "usage": noValue, "use-min-nodes": noValue, "verbose": noValue,
	"version": noValue, "wait": noValue, "wait-all-nodes": needsValue, "wckey": needsValue,
	"wrap": needsValue,
}

// short is sbatch's short options, by the long option each stands for.
var short = map[byte]string{
	'A': "account", 'a': "array", 'B': "extra-node-info", 'b': "begin", 'C': "constraint",
	'c': "cpus-per-task", 'D': "chdir", 'd': "dependency", 'e': "error", 'F': "nodefile",
	'G': "gpus", 'H': "hold", 'h': "help", 'i': "input", 'J': "job-name", 'k': "no-kill",
	'L': "licenses", 'M': "clusters", 'm': "distribution", 'N': "nodes", 'n': "ntasks",
	'O': "overcommit", 'o': "output", 'p': "partition", 'Q': "quiet", 'q': "qos",
	'S': "core-spec", 's': "oversubscribe", 't': "time", 'V': "version", 'v': "verbose",
	'W': "wait", 'w': "nodelist", 'x': "exclude",
}

// lookupLong finds a long option as getopt_long does: the exact name,
// else the one option the name begins; why says, in French, why sbatch
// refuses it otherwise, and what to write.
func lookupLong(name string) (full string, why string) {
	if _, ok := longOptions[name]; ok {
		return name, ""
	}
	var begun []string
	for o := range longOptions {
		if strings.HasPrefix(o, name) {
			begun = append(begun, o)
		}
	}
	switch slices.Sort(begun); len(begun) {
	case 0:
		return "", fmt.Sprintf("sbatch ne connaît pas l'option --%s ; vérifiez son nom dans les notes ou dans man sbatch", name)
	case 1:
		return begun[0], ""
	}
	last := len(begun) - 1
	return "", fmt.Sprintf("--%s peut être --%s ou --%s ; écrivez l'option entière", name, strings.Join(begun[:last], ", --"), begun[last])
}

// readOptions reads the words of all the directives as one command line,
// as sbatch gives them to getopt_long: an option that needs a value and
// has none glued takes the next word, even from the next line. Every
// word is kept, those sbatch refuses with why.
func (s *Script) readOptions(words []word) {
	ended := false // after "--", getopt reads no more options
	for i := 0; i < len(words); i++ {
		w := words[i]
		o := Option{Line: w.line, Written: w.raw}
		// next gives o the next word as its value, if there is one.
		next := func() bool {
			if i+1 == len(words) {
				return false
			}
			i++
			o.Value, o.Written = words[i].text, o.Written+" "+words[i].raw
			return true
		}
		switch t := w.text; {
		case t == "--" && !ended:
			ended = true
			continue
		case strings.HasPrefix(t, "--") && !ended:
			name, value, glued := strings.Cut(t[2:], "=")
			o.Name, o.Refused = lookupLong(name)
			o.Value = value
			switch kind := longOptions[o.Name]; {
			case o.Refused != "":
			case kind == noValue && glued:
				o.Refused = fmt.Sprintf("--%s ne prend pas de valeur ; retirez ce qui suit « = »", o.Name)
			case kind == needsValue && !glued && !next():
				o.Refused = fmt.Sprintf("--%s attend une valeur et rien ne suit ; écrivez --%s=valeur", o.Name, o.Name)
			}
		case len(t) > 1 && t[0] == '-' && !ended:
			// Short options may be grouped, -HJsommeil: each letter
			// is one, until one that takes a value takes the rest.
			for k := 1; k < len(t); k++ {
				// Each option written as itself: the group's whole word
				// for each of its letters made the report quadratic.
				o.Name, o.Value, o.Written = short[t[k]], "", "-"+t[k:k+1]
				if len(t) == 2 {
					o.Written = w.raw
				}
				kind := longOptions[o.Name]
				switch {
				case o.Name == "":
					r, _ := utf8.DecodeRuneInString(t[k:])
					o.Refused = fmt.Sprintf("sbatch ne connaît pas l'option -%c ; vérifiez-la dans les notes ou dans man sbatch", r)
				case kind == noValue:
					s.Options = append(s.Options, o)
					continue
				case k+1 < len(t):
					o.Value, o.Written = t[k+1:], "-"+t[k:]
				case kind == needsValue && !next():
					o.Refused = fmt.Sprintf("-%c attend une valeur et rien ne suit ; écrivez --%s=valeur", t[k], o.Name)
				}
				break
			}
		default:
			o.Value = t
			o.Refused = fmt.Sprintf("« %s » n'est pas une option ; une directive ne porte que des options, --nom=valeur", t)
			if ended {
				o.Refused = fmt.Sprintf("« %s » suit --, après quoi sbatch ne lit plus d'option ; retirez --", t)
			}
		}
		s.Options = append(s.Options, o)
	}
}

// Last returns the option in effect: the last one given that sbatch
// does not refuse.
func (s *Script) Last(name string) (Option, bool) {
	for i := len(s.Options) - 1; i >= 0; i-- {
		s.work++
		if s.Options[i].Name == name && s.Options[i].Refused == "" {
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
	accepted := len(s.Lines) > 0 && strings.HasPrefix(s.Lines[0], "#!") && !s.CRLF && len(s.Unmatched) == 0 &&
		!slices.ContainsFunc(s.Options, func(o Option) bool { return o.Refused != "" })
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
	checkMemory(r, s)
	// sbatch stops at the first word it refuses: one problem says it, and
	// how many follow (one each made a 1 MiB script a 128 MB report).
	refused := slices.IndexFunc(s.Options, func(o Option) bool { return o.Refused != "" })
	if refused >= 0 {
		o, more := s.Options[refused], 0
		for _, p := range s.Options[refused+1:] {
			if p.Refused != "" {
				more++
			}
		}
		msg := explainOption(o)
		if more > 0 {
			msg += fmt.Sprintf(" (et %d autres mots refusés plus loin ; sbatch s'arrête au premier)", more)
		}
		r.Problems.Add(checklist.CodeSbatchRefusedDirective, checklist.SevError, o.Line, "%s", msg)
	}
	for _, no := range s.Unmatched {
		r.Problems.Add(checklist.CodeSbatchRefusedDirective, checklist.SevError, no, "un guillemet ouvert n'est pas refermé ; sbatch refuse le script : fermez-le ou retirez-le")
	}
	checkGiven(r, s, given)
	slices.SortStableFunc(r.Problems, func(a, b checklist.Problem) int { return a.Line - b.Line })
	r.Explain = explain(s, e)
	r.work = s.work
	return r
}

// checkMemory: sbatch takes one of the three ways of asking for memory.
func checkMemory(r *Report, s *Script) {
	_, mem := s.Last("mem")
	perCPU, cpu := s.Last("mem-per-cpu")
	if perGPU, gpu := s.Last("mem-per-gpu"); gpu && (mem || cpu) {
		r.Problems.Add(checklist.CodeSbatchMemConflict, checklist.SevError, perGPU.Line, "%s avec --mem ou --mem-per-cpu : sbatch refuse le script ; gardez seulement --mem=1G", perGPU.Written)
	}
	if cpu && mem {
		r.Problems.Add(checklist.CodeSbatchMemConflict, checklist.SevError, perCPU.Line, "%s avec --mem : sbatch refuse le script ; gardez seulement --mem=1G", perCPU.Written)
	}
}

// checkGiven: a partition or an account only as the organisers gave it.
func checkGiven(r *Report, s *Script, given Given) {
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
	j := 0           // the first option not yet explained; options are in line order
	stopped := false // a refused option was explained: sbatch stops there
	u := 0           // the same in Unmatched
	for i, line := range s.Lines {
		s.work++
		say := func(format string, args ...any) {
			out = append(out, fmt.Sprintf("ligne %d : ", i+1)+fmt.Sprintf(format, args...))
		}
		trimmed := strings.TrimSpace(line)
		for ; j < len(s.Options) && s.Options[j].Line == i+1; j++ {
			s.work++
			if s.Options[j].Refused != "" {
				if stopped {
					continue // sbatch stopped at an earlier refusal (Check counts these)
				}
				stopped = true
			}
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
	if o.Refused != "" {
		return fmt.Sprintf("%s : sbatch refuse le script : %s", o.Written, o.Refused)
	}
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
		m, ok := ParseMem(o.Value)
		switch {
		case ok && m == 0:
			// The sbatch manual: zero is a special case, all the memory.
			return fmt.Sprintf("%s : toute la mémoire du nœud (zéro est un cas à part pour Slurm)", o.Written)
		case ok:
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
