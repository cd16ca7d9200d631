package sbatch

import (
	"github.com/romeo-pret/pret/checklist"

	"fmt"
	"strconv"
	"strings"
)

// ParseTime reads a --time value as Slurm's time_str2mins does: minutes,
// minutes:seconds, hours:minutes:seconds, days-hours, days-hours:minutes,
// days-hours:minutes:seconds; seconds round up to the next minute.
// unlimited is true for 0, -1, INFINITE and UNLIMITED.
func ParseTime(v string) (minutes int, unlimited bool, ok bool) {
	switch strings.ToUpper(v) {
	case "-1", "INFINITE", "UNLIMITED":
		return 0, true, true
	case "":
		return 0, false, false
	}
	for _, c := range v {
		if !(c >= '0' && c <= '9' || c == '-' || c == ':') {
			return 0, false, false
		}
	}
	num := func(s string) (int, bool) {
		if s == "" {
			return 0, false
		}
		n, err := strconv.Atoi(s)
		return n, err == nil && n >= 0
	}
	days, rest, hasDays := strings.Cut(v, "-")
	if !hasDays {
		days, rest = "0", v
	}
	parts := strings.Split(rest, ":")
	// What each field counts, in seconds, by how many there are.
	mult := map[int][]int{1: {60}, 2: {60, 1}, 3: {3600, 60, 1}}[len(parts)]
	if hasDays {
		mult = []int{3600, 60, 1}[:min(len(parts), 3)]
	}
	d, ok := num(days)
	if !ok || len(parts) > 3 || mult == nil {
		return 0, false, false
	}
	secs := d * 86400
	for i, p := range parts {
		n, ok := num(p)
		if !ok {
			return 0, false, false
		}
		secs += n * mult[i]
	}
	m := (secs + 59) / 60
	// A time limit of zero asks for no limit at all.
	return m, m == 0, true
}

// ParseMem reads a --mem value as Slurm's str_to_mbytes does: a whole
// number, MiB without a suffix, K (rounded up), M, G or T after it.
func ParseMem(v string) (mib int64, ok bool) {
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(v[:i], 10, 64)
	if err != nil {
		return 0, false
	}
	if i == len(v) {
		return n, true
	}
	switch v[i] {
	case 'k', 'K':
		return (n + 1023) / 1024, true
	case 'm', 'M':
		return n, true
	case 'g', 'G':
		return n * 1024, true
	case 't', 'T':
		return n * 1024 * 1024, true
	}
	return 0, false
}

// Effective is what Slurm will retain from the script (livrables.md).
type Effective = checklist.SbatchEffective

// Effective computes what Slurm retains, and whether sbatch accepts it.
func (s *Script) Effective() Effective {
	e := Effective{JobName: s.Name, Output: "slurm-%j.out", CPUsPerTask: 1, IgnoredDirectives: []int{}}
	refuse := func(format string, args ...any) { e.Refusals = append(e.Refusals, fmt.Sprintf(format, args...)) }
	if len(s.Lines) == 0 || !strings.HasPrefix(s.Lines[0], "#!") {
		refuse("la première ligne ne commence pas par #! : sbatch refuse le script")
	}
	if s.CRLF {
		refuse("fins de ligne Windows (CRLF) : sbatch refuse le script")
	}
	for _, l := range s.Unmatched {
		refuse("ligne %d : guillemet non fermé", l)
	}
	if o, ok := s.Last("job-name"); ok {
		e.JobName = o.Value
	}
	if o, ok := s.Last("output"); ok {
		e.Output = o.Value
	}
	if o, ok := s.Last("time"); ok {
		m, unlimited, valid := ParseTime(o.Value)
		switch {
		case !valid:
			refuse("ligne %d : --time=%s n'est pas une durée que Slurm comprend", o.Line, o.Value)
		case unlimited:
			zero := 0
			e.TimeLimitMinutes = &zero
		default:
			e.TimeLimitMinutes = &m
		}
	}
	if o, ok := s.Last("cpus-per-task"); ok {
		n, err := strconv.Atoi(o.Value)
		if err != nil || n < 1 {
			refuse("ligne %d : --cpus-per-task=%s n'est pas un nombre de CPU", o.Line, o.Value)
		} else {
			e.CPUsPerTask = n
		}
	}
	if o, ok := s.Last("mem"); ok {
		m, valid := ParseMem(o.Value)
		if !valid {
			refuse("ligne %d : --mem=%s n'est pas une quantité de mémoire (nombre, puis K, M, G ou T)", o.Line, o.Value)
		} else {
			e.MemMiB = m
		}
		for _, other := range []string{"mem-per-cpu", "mem-per-gpu"} {
			if _, conflict := s.Last(other); conflict {
				refuse("--mem et --%s ensemble : sbatch refuse le script", other)
			}
		}
	} else if _, a := s.Last("mem-per-cpu"); a {
		if _, b := s.Last("mem-per-gpu"); b {
			refuse("--mem-per-cpu et --mem-per-gpu ensemble : sbatch refuse le script")
		}
	}
	for _, ig := range s.Ignored {
		e.IgnoredDirectives = append(e.IgnoredDirectives, ig.Line)
	}
	e.AcceptedBySbatch = len(e.Refusals) == 0
	return e
}
