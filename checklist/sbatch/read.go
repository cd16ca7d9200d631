// Package sbatch reads a batch script the way sbatch itself does (the
// sbatch manual and Slurm's src/sbatch/opt.c): which #SBATCH lines count,
// how their words split, and what Slurm will retain. It is its own
// package because it knows Slurm, not acces.md; checklist/livrables puts
// it together with the other deliverables.
package sbatch

import (
	"strings"
	"sync"
)

// Option is one option as sbatch's getopt sees it.
type Option struct {
	Name     string // the long name: "job-name", "time", …
	Value    string
	HasValue bool
	Line     int
	Written  string // as written: "-J sommeil", "--time=2"
}

// Ignored is an #SBATCH-looking line that Slurm skips, and why.
type Ignored struct {
	Line int
	Why  string
}

// Command is a line of the script that the shell runs.
type Command struct {
	Line int
	Text string
}

// Script is a batch script as sbatch reads it.
type Script struct {
	Name         string // the file name: Slurm's job name when none is set
	Lines        []string
	CRLF         bool
	Options      []Option // in order; a later one overrides an earlier one
	Ignored      []Ignored
	Commands     []Command
	FirstCommand int // line number of the first command, 0 when none
	DirectiveAt  map[int][]int
	Unmatched    []int // lines with an unmatched quote
}

// Parse reads a script. Nothing is executed and nothing is expanded.
func Parse(name string, data []byte) *Script {
	s := &Script{Name: name, DirectiveAt: map[int][]int{}}
	text := string(data)
	s.CRLF = strings.Contains(text, "\r\n")
	if text != "" {
		// "\n" alone is one empty line, as "\r\n" is.
		s.Lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	}
	for i := range s.Lines {
		s.Lines[i] = strings.TrimSuffix(s.Lines[i], "\r")
	}
	inDirectives := true
	for i, line := range s.Lines {
		no := i + 1
		trimmed := strings.TrimSpace(line)
		looksLike := looksLikeDirective(trimmed)
		if inDirectives && strings.HasPrefix(line, "#SBATCH") {
			args, raws, unmatched := splitArguments(line[len("#SBATCH"):])
			if unmatched {
				s.Unmatched = append(s.Unmatched, no)
			}
			s.addOptions(no, args, raws)
			continue
		}
		switch {
		case trimmed == "":
			continue
		case strings.HasPrefix(trimmed, "#"):
			if looksLike {
				why := "indentée : seule une ligne qui commence par #SBATCH en colonne 0 compte"
				switch {
				case !inDirectives:
					why = "après la première commande : Slurm a cessé de lire les directives"
				case !strings.HasPrefix(trimmed, "#SBATCH"):
					why = "écrite autrement que #SBATCH (casse ou espace) : c'est un commentaire"
				}
				s.Ignored = append(s.Ignored, Ignored{no, why})
			}
			continue
		}
		// The first line that is neither blank nor a comment ends the
		// directives (opt.c stops there).
		if inDirectives {
			inDirectives = false
			s.FirstCommand = no
		}
		s.Commands = append(s.Commands, Command{no, trimmed})
	}
	return s
}

func looksLikeDirective(trimmed string) bool {
	low := strings.ToLower(trimmed)
	return strings.HasPrefix(low, "#sbatch") || strings.HasPrefix(low, "# sbatch")
}

// splitArguments follows _get_argument in opt.c: white space separates
// words, quotes group them and are removed, a backslash escapes the next
// character, and an unquoted # starts a comment. raws are the words as
// written, quotes included.
func splitArguments(s string) (args, raws []string, unmatched bool) {
	var cur strings.Builder
	inWord, escape := false, false
	start := 0
	var quote byte
	end := func(i int) {
		args = append(args, cur.String())
		raws = append(raws, s[start:i])
		cur.Reset()
		inWord = false
	}
	begin := func(i int) {
		if !inWord {
			inWord, start = true, i
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case escape:
			escape = false
			cur.WriteByte(c)
			continue
		case c == '\\':
			begin(i)
			escape = true
			continue
		case quote != 0:
			if c == quote {
				quote = 0
				continue
			}
			cur.WriteByte(c)
			continue
		case c == '"' || c == '\'':
			begin(i)
			quote = c
			continue
		case c == '#':
			if inWord {
				end(i)
			}
			return args, raws, false
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			if inWord {
				end(i)
			}
			continue
		}
		begin(i)
		cur.WriteByte(c)
	}
	if inWord {
		end(len(s))
	}
	return args, raws, quote != 0
}

// short maps sbatch's one-letter options to their long names.
var short = sync.OnceValue(func() map[byte]string {
	return map[byte]string{
		'J': "job-name", 'o': "output", 'e': "error", 't': "time", 'c': "cpus-per-task",
		'p': "partition", 'A': "account", 'D': "chdir", 'N': "nodes", 'n': "ntasks",
		'a': "array", 'd': "dependency", 'w': "nodelist", 'x': "exclude", 'C': "constraint",
		'q': "qos", 'G': "gpus", 'L': "licenses", 'i': "input", 'm': "distribution",
		'M': "clusters", 'S': "core-spec", 'B': "extra-node-info", 'b': "begin", 'F': "nodefile",
		'H': "hold", 'O': "overcommit", 'Q': "quiet", 'v': "verbose", 'W': "wait",
		's': "oversubscribe", 'k': "no-kill", 'I': "immediate", 'h': "help", 'V': "version",
	}
})

// takesValue lists the options whose value may follow as the next word.
var takesValue = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"job-name": true, "output": true, "error": true, "time": true, "cpus-per-task": true,
		"partition": true, "account": true, "chdir": true, "nodes": true, "ntasks": true,
		"array": true, "dependency": true, "nodelist": true, "exclude": true, "constraint": true,
		"qos": true, "gpus": true, "licenses": true, "input": true, "distribution": true,
		"clusters": true, "cluster": true, "core-spec": true, "extra-node-info": true, "begin": true, "nodefile": true,
		"mem": true, "mem-per-cpu": true, "mem-per-gpu": true, "mem-bind": true, "gres": true,
		"gres-flags": true, "gpus-per-node": true, "gpus-per-task": true, "gpus-per-socket": true,
		"cpus-per-gpu": true, "gpu-bind": true, "gpu-freq": true, "mail-type": true, "mail-user": true,
		"ntasks-per-node": true, "ntasks-per-core": true, "ntasks-per-socket": true, "ntasks-per-gpu": true,
		"reservation": true, "signal": true, "time-min": true, "tmp": true, "wckey": true,
		"comment": true, "export": true, "export-file": true, "open-mode": true, "cpu-freq": true,
		"priority": true, "uid": true, "gid": true, "container": true, "batch": true,
		"threads-per-core": true, "cores-per-socket": true, "sockets-per-node": true, "switches": true,
		"network": true, "power": true, "profile": true, "deadline": true, "delay-boot": true,
		"acctg-freq": true, "bb": true, "bbf": true, "hint": true, "mcs-label": true, "mincpus": true,
		"prefer": true, "kill-on-invalid-dep": true, "thread-spec": true, "wrap": true,
	}
})

// addOptions runs getopt over one directive line's words.
func (s *Script) addOptions(line int, args, raws []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		written := raws[i]
		var o Option
		switch {
		case strings.HasPrefix(a, "--"):
			name, value, has := strings.Cut(a[2:], "=")
			o = Option{Name: name, Value: value, HasValue: has, Line: line, Written: written}
			if !has && takesValue()[name] && i+1 < len(args) {
				i++
				o.Value, o.HasValue, o.Written = args[i], true, written+" "+raws[i]
			}
		case strings.HasPrefix(a, "-") && len(a) >= 2:
			name, ok := short()[a[1]]
			if !ok {
				name = a[1:2]
			}
			o = Option{Name: name, Line: line, Written: written}
			switch {
			case len(a) > 2:
				o.Value, o.HasValue = strings.TrimPrefix(a[2:], "="), true
			case takesValue()[name] && i+1 < len(args):
				i++
				o.Value, o.HasValue, o.Written = args[i], true, written+" "+raws[i]
			}
		default:
			// A bare word: getopt leaves it as the script's argument;
			// keep it so the rules can name it.
			o = Option{Name: "", Value: a, HasValue: true, Line: line, Written: written}
		}
		s.DirectiveAt[line] = append(s.DirectiveAt[line], len(s.Options))
		s.Options = append(s.Options, o)
	}
}

// Last returns the option in effect for a long name: the last one given.
func (s *Script) Last(name string) (Option, bool) {
	for i := len(s.Options) - 1; i >= 0; i-- {
		if s.Options[i].Name == name {
			return s.Options[i], true
		}
	}
	return Option{}, false
}
