// Package sbatch reads a batch script the way sbatch itself does (the
// sbatch manual and Slurm's src/sbatch/opt.c): which #SBATCH lines count,
// how their words split, and what Slurm will retain. It is its own
// package because it knows Slurm, not acces.md; checklist/livrables puts
// it together with the other deliverables.
package sbatch

import "strings"

// Option is one option as sbatch's getopt sees it.
type Option struct {
	Name    string // the long name: "job-name", "time", …
	Value   string
	Line    int
	Written string // as written: "-J sommeil", "--time=2"
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
	Name        string // the file name: Slurm's job name when none is set
	Lines       []string
	CRLF        bool
	Options     []Option // in order; a later one overrides an earlier one
	Ignored     []Ignored
	Commands    []Command
	DirectiveAt map[int][]int // line → indices in Options
	Unmatched   []int         // lines with an unmatched quote
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
		if inDirectives && strings.HasPrefix(line, "#SBATCH") {
			args, raws, unmatched := splitArguments(line[len("#SBATCH"):])
			if unmatched {
				s.Unmatched = append(s.Unmatched, no)
			}
			s.addOptions(no, args, raws)
			continue
		}
		switch low := strings.ToLower(trimmed); {
		case trimmed == "":
			continue
		case strings.HasPrefix(trimmed, "#"):
			if strings.HasPrefix(low, "#sbatch") || strings.HasPrefix(low, "# sbatch") {
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
		inDirectives = false
		s.Commands = append(s.Commands, Command{no, trimmed})
	}
	return s
}

// splitArguments follows _get_argument in opt.c: white space separates
// words, quotes group them and are removed, a backslash escapes the next
// character, and an unquoted # starts a comment. raws are the words as
// written, quotes included.
func splitArguments(s string) (args, raws []string, unmatched bool) {
	var cur strings.Builder
	start := -1 // where the word read starts, -1 between words
	var quote byte
	begin := func(i int) {
		if start < 0 {
			start = i
		}
	}
	end := func(i int) {
		if start >= 0 {
			args, raws = append(args, cur.String()), append(raws, s[start:i])
			cur.Reset()
			start = -1
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			begin(i)
			if i++; i < len(s) {
				cur.WriteByte(s[i])
			}
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '"' || c == '\'':
			begin(i)
			quote = c
		case c == '#':
			end(i)
			return args, raws, false
		case strings.IndexByte(" \t\r\v\f", c) >= 0:
			end(i)
		default:
			begin(i)
			cur.WriteByte(c)
		}
	}
	end(len(s))
	return args, raws, quote != 0
}

// short maps sbatch's one-letter options to their long names.
var short = map[byte]string{
	'J': "job-name", 'o': "output", 'e': "error", 't': "time", 'c': "cpus-per-task",
	'p': "partition", 'A': "account", 'D': "chdir", 'N': "nodes", 'n': "ntasks",
	'a': "array", 'd': "dependency", 'w': "nodelist", 'x': "exclude", 'C': "constraint",
	'q': "qos", 'G': "gpus", 'L': "licenses", 'i': "input", 'm': "distribution",
	'M': "clusters", 'S': "core-spec", 'B': "extra-node-info", 'b': "begin", 'F': "nodefile",
	'H': "hold", 'O': "overcommit", 'Q': "quiet", 'v': "verbose", 'W': "wait",
	's': "oversubscribe", 'k': "no-kill", 'I': "immediate", 'h': "help", 'V': "version",
}

// takesValue lists the options whose value may follow as the next word.
var takesValue = func() map[string]bool {
	m := map[string]bool{}
	for _, name := range strings.Fields(`job-name output error time cpus-per-task partition account
		chdir nodes ntasks array dependency nodelist exclude constraint qos gpus licenses input
		distribution clusters cluster core-spec extra-node-info begin nodefile mem mem-per-cpu
		mem-per-gpu mem-bind gres gres-flags gpus-per-node gpus-per-task gpus-per-socket
		cpus-per-gpu gpu-bind gpu-freq mail-type mail-user ntasks-per-node ntasks-per-core
		ntasks-per-socket ntasks-per-gpu reservation signal time-min tmp wckey comment export
		export-file open-mode cpu-freq priority uid gid container batch threads-per-core
		cores-per-socket sockets-per-node switches network power profile deadline delay-boot
		acctg-freq bb bbf hint mcs-label mincpus prefer kill-on-invalid-dep thread-spec wrap`) {
		m[name] = true
	}
	return m
}()

// addOptions runs getopt over one directive line's words.
func (s *Script) addOptions(line int, args, raws []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		written := raws[i]
		var o Option
		switch {
		case strings.HasPrefix(a, "--"):
			name, value, has := strings.Cut(a[2:], "=")
			o = Option{Name: name, Value: value, Line: line, Written: written}
			if !has && takesValue[name] && i+1 < len(args) {
				i++
				o.Value, o.Written = args[i], written+" "+raws[i]
			}
		case strings.HasPrefix(a, "-") && len(a) >= 2:
			name, ok := short[a[1]]
			if !ok {
				name = a[1:2]
			}
			o = Option{Name: name, Line: line, Written: written}
			switch {
			case len(a) > 2:
				o.Value = strings.TrimPrefix(a[2:], "=")
			case takesValue[name] && i+1 < len(args):
				i++
				o.Value, o.Written = args[i], written+" "+raws[i]
			}
		default:
			// A bare word: getopt leaves it as the script's argument;
			// keep it so the rules can name it.
			o = Option{Value: a, Line: line, Written: written}
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
