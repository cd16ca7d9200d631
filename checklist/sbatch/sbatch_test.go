package sbatch

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/internal/testenv"
)

const model = "#!/bin/bash\n#SBATCH --job-name=sommeil\n#SBATCH --output=sommeil-%j.out\n#SBATCH --time=00:02:00\n#SBATCH --cpus-per-task=1\n#SBATCH --mem=1G\nhostname\nsleep 30\n"

// replace swaps one line of the model.
func replace(old, new string) string { return testenv.Edit(model, old, new) }

type scase struct {
	name   string
	script string
	codes  string // sorted, comma-separated
	// expected effective values; time -1 means "not set" (null)
	accepted bool
	jobName  string
	output   string
	time     int
	cpus     int
	mem      int64
	ignored  string
}

func ok(name, script, codes string, time int, cpus int, mem int64) scase {
	return scase{name: name, script: script, codes: codes, accepted: true, jobName: "sommeil", output: "sommeil-%j.out", time: time, cpus: cpus, mem: mem}
}

var cases = []scase{
	ok("the model", model, "", 2, 1, 1024),
	ok("blank and comment lines between directives", replace("#SBATCH --time=00:02:00\n", "\n# la limite :\n   \n#SBATCH --time=00:02:00\n"), "", 2, 1, 1024),
	{name: "indented directive", script: replace("#SBATCH --mem=1G", "  #SBATCH --mem=1G"), codes: "sbatch-ignored-directive,sbatch-missing-option",
		accepted: true, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 0, ignored: "6"},
	{name: "lower-case #sbatch", script: replace("#SBATCH --cpus-per-task=1", "#sbatch --cpus-per-task=2"), codes: "sbatch-ignored-directive,sbatch-missing-option",
		accepted: true, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024, ignored: "5"},
	{name: "directive after hostname", script: testenv.Edit(replace("#SBATCH --time=00:02:00\n", ""), "hostname\n", "hostname\n#SBATCH --time=00:02:00\n"),
		codes: "sbatch-ignored-directive,sbatch-missing-option", accepted: true, jobName: "sommeil", output: "sommeil-%j.out", time: -1, cpus: 1, mem: 1024, ignored: "7"},
	{name: "$HOME in --output", script: replace("--output=sommeil-%j.out", "--output=$HOME/sommeil-%j.out"), codes: "sbatch-shell-variable,sbatch-wrong-value",
		accepted: true, jobName: "sommeil", output: "$HOME/sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	ok("time in minutes", replace("--time=00:02:00", "--time=2"), "sbatch-spelling", 2, 1, 1024),
	ok("time minutes:seconds", replace("--time=00:02:00", "--time=02:00"), "sbatch-spelling", 2, 1, 1024),
	ok("time rounds 90 s up to 2 minutes", replace("--time=00:02:00", "--time=00:01:30"), "sbatch-spelling", 2, 1, 1024),
	ok("time 30 s is 1 minute", replace("--time=00:02:00", "--time=00:00:30"), "sbatch-wrong-value", 1, 1, 1024),
	ok("time 10 s is 1 minute", replace("--time=00:02:00", "--time=0:10"), "sbatch-wrong-value", 1, 1, 1024),
	ok("time 2 hours", replace("--time=00:02:00", "--time=02:00:00"), "sbatch-wrong-value", 120, 1, 1024),
	ok("time days-hours", replace("--time=00:02:00", "--time=1-2"), "sbatch-wrong-value", 1560, 1, 1024),
	ok("time days-hours:minutes", replace("--time=00:02:00", "--time=0-0:2"), "sbatch-spelling", 2, 1, 1024),
	ok("time days-hours:minutes:seconds", replace("--time=00:02:00", "--time=0-00:01:01"), "sbatch-spelling", 2, 1, 1024),
	ok("time zero", replace("--time=00:02:00", "--time=0"), "sbatch-time-zero,sbatch-wrong-value", 0, 1, 1024),
	ok("time unlimited", replace("--time=00:02:00", "--time=UNLIMITED"), "sbatch-time-zero,sbatch-wrong-value", 0, 1, 1024),
	{name: "time not understood", script: replace("--time=00:02:00", "--time=2min"), codes: "sbatch-wrong-value", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: -1, cpus: 1, mem: 1024},
	ok("mem 1024 without unit", replace("--mem=1G", "--mem=1024"), "sbatch-spelling", 2, 1, 1024),
	ok("mem 1024M", replace("--mem=1G", "--mem=1024M"), "sbatch-spelling", 2, 1, 1024),
	ok("mem 2G", replace("--mem=1G", "--mem=2G"), "sbatch-wrong-value", 2, 1, 2048),
	ok("mem 0 is all the node's memory", replace("--mem=1G", "--mem=0"), "sbatch-wrong-value", 2, 1, 0),
	ok("mem in K, rounded up", replace("--mem=1G", "--mem=1048577K"), "sbatch-wrong-value", 2, 1, 1025),
	ok("short options", strings.NewReplacer("--job-name=sommeil", "-J sommeil", "--output=sommeil-%j.out", "-o sommeil-%j.out", "--time=00:02:00", "-t 2", "--cpus-per-task=1", "-c 1").Replace(model),
		"sbatch-spelling,sbatch-spelling,sbatch-spelling,sbatch-spelling", 2, 1, 1024),
	ok("short options glued", replace("--job-name=sommeil", "-Jsommeil"), "sbatch-spelling", 2, 1, 1024),
	ok("long option with a space", replace("--job-name=sommeil", "--job-name sommeil"), "sbatch-spelling", 2, 1, 1024),
	ok("several options on one line", "#!/bin/bash\n#SBATCH --job-name=sommeil --output=sommeil-%j.out\n#SBATCH --time=00:02:00 --cpus-per-task=1 --mem=1G\nhostname\nsleep 30\n", "", 2, 1, 1024),
	ok("inline comment", replace("--mem=1G", "--mem=1G # un gibioctet --mem=4G"), "", 2, 1, 1024),
	ok("quoted value", replace("--job-name=sommeil", `--job-name="sommeil"`), "sbatch-spelling", 2, 1, 1024),
	ok("later option overrides", replace("#SBATCH --cpus-per-task=1\n", "#SBATCH --cpus-per-task=4\n#SBATCH -c 1\n"), "sbatch-spelling", 2, 1, 1024),
	ok("two cpus", replace("--cpus-per-task=1", "--cpus-per-task=2"), "sbatch-wrong-value", 2, 2, 1024),
	{name: "other job name", script: replace("--job-name=sommeil", "--job-name=dodo"), codes: "sbatch-wrong-value", accepted: true, jobName: "dodo", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	{name: "no job name: the file name", script: replace("#SBATCH --job-name=sommeil\n", ""), codes: "sbatch-missing-option", accepted: true, jobName: "sommeil.sbatch", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	{name: "no output: slurm-%j.out", script: replace("#SBATCH --output=sommeil-%j.out\n", ""), codes: "sbatch-missing-option", accepted: true, jobName: "sommeil", output: "slurm-%j.out", time: 2, cpus: 1, mem: 1024},
	{name: "CRLF", script: strings.ReplaceAll(model, "\n", "\r\n"), codes: "sbatch-crlf", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	{name: "no shebang", script: strings.TrimPrefix(model, "#!/bin/bash\n"), codes: "sbatch-shebang", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	ok("#!/bin/sh", replace("#!/bin/bash", "#!/bin/sh"), "sbatch-shebang", 2, 1, 1024),
	{name: "mem with mem-per-cpu", script: replace("--mem=1G", "--mem=1G --mem-per-cpu=512M"), codes: "sbatch-mem-conflict", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	ok("commands in another order", replace("hostname\nsleep 30\n", "sleep 30\nhostname\n"), "sbatch-commands", 2, 1, 1024),
	ok("commands on one line", replace("hostname\nsleep 30\n", "hostname; sleep 30\n"), "sbatch-commands", 2, 1, 1024),
	// A value sbatch refuses is an error, whatever the reader falls back to.
	{name: "cpus 0", script: replace("--cpus-per-task=1", "--cpus-per-task=0"), codes: "sbatch-wrong-value", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	{name: "cpus -1", script: replace("--cpus-per-task=1", "--cpus-per-task=-1"), codes: "sbatch-wrong-value", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	{name: "cpus x", script: replace("--cpus-per-task=1", "--cpus-per-task=x"), codes: "sbatch-wrong-value", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	{name: "cpus 1.0", script: replace("--cpus-per-task=1", "--cpus-per-task=1.0"), codes: "sbatch-wrong-value", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	{name: "cpus past a C int", script: replace("--cpus-per-task=1", "--cpus-per-task=2147483648"), codes: "sbatch-wrong-value", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	ok("cpus +1, as strtol reads it", replace("--cpus-per-task=1", "--cpus-per-task=+1"), "sbatch-spelling", 2, 1, 1024),
	ok("cpus with a blank before", replace("--cpus-per-task=1", `--cpus-per-task=" 1"`), "sbatch-spelling", 2, 1, 1024),
	{name: "cpus with a blank after", script: replace("--cpus-per-task=1", `--cpus-per-task="1 "`), codes: "sbatch-wrong-value", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	{name: "mem not understood", script: replace("--mem=1G", "--mem=1X"), codes: "sbatch-wrong-value", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 0},
	{name: "unmatched quote", script: replace("--job-name=sommeil", `--job-name="sommeil`), codes: "sbatch-missing-option,sbatch-refused-directive", accepted: false, jobName: "sommeil.sbatch", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	{name: "mem-per-cpu with mem-per-gpu", script: replace("--mem=1G", "--mem-per-cpu=512M --mem-per-gpu=512M"), codes: "sbatch-mem-conflict,sbatch-missing-option", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 0},
	// getopt_long's reading: one command line of all the directives.
	{name: "unknown option", script: replace("hostname\n", "#SBATCH --foo=bar\nhostname\n"), codes: "sbatch-refused-directive", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	ok("unique prefix", replace("--job-name=sommeil", "--job-nam=sommeil"), "sbatch-spelling", 2, 1, 1024),
	{name: "ambiguous prefix", script: replace("--time=00:02:00", "--tim=00:02:00"), codes: "sbatch-missing-option,sbatch-refused-directive", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: -1, cpus: 1, mem: 1024},
	{name: "-J takes the next line's word", script: replace("--job-name=sommeil", "-J"), codes: "sbatch-missing-option,sbatch-wrong-value", accepted: true, jobName: "--output=sommeil-%j.out", output: "slurm-%j.out", time: 2, cpus: 1, mem: 1024},
	{name: "-J with nothing after", script: replace("--mem=1G", "--mem=1G -J"), codes: "sbatch-refused-directive", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	{name: "a value to an option that takes none", script: replace("hostname\n", "#SBATCH --hold=1\nhostname\n"), codes: "sbatch-refused-directive", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	{name: "a word that is no option", script: replace("hostname\n", "#SBATCH sommeil\nhostname\n"), codes: "sbatch-refused-directive", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	{name: "an optional value is only glued", script: replace("hostname\n", "#SBATCH --exclusive user\nhostname\n"), codes: "sbatch-refused-directive", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	{name: "options after --", script: replace("--mem=1G", "-- --mem=1G"), codes: "sbatch-missing-option,sbatch-refused-directive", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 0},
	{name: "unknown short option", script: replace("hostname\n", "#SBATCH -E\nhostname\n"), codes: "sbatch-refused-directive", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	{name: "-c=1 gives =1", script: replace("--cpus-per-task=1", "-c=1"), codes: "sbatch-wrong-value", accepted: false, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	ok("grouped short options", replace("--job-name=sommeil", "-HJsommeil"), "sbatch-spelling", 2, 1, 1024),
	{name: "an empty word ends the line", script: replace("--mem=1G", `"" --mem=1G`), codes: "sbatch-missing-option", accepted: true, jobName: "sommeil", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 0},
	{name: "an escaped blank still ends the word", script: replace("--job-name=sommeil", `--job-name=som\ meil`), codes: "sbatch-refused-directive,sbatch-wrong-value", accepted: false, jobName: "som", output: "sommeil-%j.out", time: 2, cpus: 1, mem: 1024},
	ok("a comment glued to a value", replace("--mem=1G", "--mem=1G#un gibioctet"), "", 2, 1, 1024),
	ok("partition not given", replace("hostname\n", "#SBATCH --partition=debug\nhostname\n"), "sbatch-unrequested-option", 2, 1, 1024),
}

func TestRules(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check("sommeil.sbatch", []byte(c.script), Given{})
			var got []string
			for _, p := range r.Problems {
				got = append(got, string(p.Code))
			}
			sort.Strings(got)
			if strings.Join(got, ",") != c.codes {
				t.Errorf("codes %v, want %q\n%+v", got, c.codes, r.Problems)
			}
			e := r.Effective
			var ign []string
			for _, l := range e.IgnoredDirectives {
				ign = append(ign, strconv.Itoa(l))
			}
			tl := -1
			if e.TimeLimitMinutes != nil {
				tl = *e.TimeLimitMinutes
			}
			if e.AcceptedBySbatch != c.accepted || e.JobName != c.jobName || e.Output != c.output || tl != c.time ||
				e.CPUsPerTask != c.cpus || e.MemMiB != c.mem || strings.Join(ign, ",") != c.ignored {
				t.Errorf("effective %+v (time %d)", e, tl)
			}
			for _, p := range r.Problems {
				if p.Message == "" {
					t.Errorf("no message: %+v", p)
				}
			}
			if !e.AcceptedBySbatch && !hasError(r.Problems) {
				t.Errorf("sbatch refuses the script, yet no error: %+v", r.Problems)
			}
		})
	}
}

// hasError: a script with one of these problems is not valid.
func hasError(ps []checklist.Problem) bool {
	for _, p := range ps {
		if p.Severity == checklist.SevError {
			return true
		}
	}
	return false
}

func TestGivenPartitionAndAccount(t *testing.T) {
	script := replace("hostname\n", "#SBATCH --partition=romeo --account=formation\nhostname\n")
	if r := Check("sommeil.sbatch", []byte(script), Given{Partition: "romeo", Account: "formation"}); len(r.Problems) != 0 {
		t.Errorf("given names refused: %+v", r.Problems)
	}
	if r := Check("sommeil.sbatch", []byte(script), Given{Partition: "romeo", Account: "autre"}); len(r.Problems) != 1 || r.Problems[0].Code != "sbatch-unrequested-option" {
		t.Errorf("other account: %+v", r.Problems)
	}
}

func TestExplainLineByLine(t *testing.T) {
	for _, c := range []struct {
		script string
		want   []string
	}{
		{replace("--time=00:02:00", "--time=00:00:30"), []string{
			"ligne 1 : #!/bin/bash : le noyau lance bash",
			"ligne 4 : --time=00:00:30 : Slurm retient 1 minute",
			"ligne 5 : --cpus-per-task=1 : 1 CPU pour la tâche",
			"ligne 6 : --mem=1G : 1024 Mio de mémoire réelle sur le nœud",
			"ligne 7 : hostname : écrit le nom du nœud",
			"ligne 8 : sleep 30 : attend 30 secondes",
		}},
		{replace("--cpus-per-task=1", "--cpus-per-task=0"), []string{"ligne 5 : --cpus-per-task=0 : pas un nombre de CPU que sbatch accepte"}},
		// The sbatch manual: zero grants the job all of each node's memory.
		{replace("--mem=1G", "--mem=0"), []string{"ligne 6 : --mem=0 : toute la mémoire du nœud"}},
		{replace("--mem=1G", "--mem=0G"), []string{"ligne 6 : --mem=0G : toute la mémoire du nœud"}},
	} {
		joined := strings.Join(Check("sommeil.sbatch", []byte(c.script), Given{}).Explain, "\n")
		for _, want := range c.want {
			if !strings.Contains(joined, want) {
				t.Errorf("missing %q in\n%s", want, joined)
			}
		}
	}
}

func FuzzCheck(f *testing.F) {
	for _, c := range cases {
		f.Add([]byte(c.script))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := Check("sommeil.sbatch", data, Given{})
		lines := len(Parse("sommeil.sbatch", data).Lines)
		for _, p := range r.Problems {
			if !strings.HasPrefix(string(p.Code), "sbatch-") || p.Message == "" ||
				p.Severity != checklist.SevError && p.Severity != checklist.SevWarning {
				t.Fatalf("malformed problem %+v", p)
			}
			if p.Line < 0 || p.Line > lines {
				t.Fatalf("%s at line %d of a %d-line script", p.Code, p.Line, lines)
			}
		}
		// The explanation goes through the script in order, within it.
		last := 0
		for _, e := range r.Explain {
			var no int
			if _, err := fmt.Sscanf(e, "ligne %d : ", &no); err != nil || no < last || no < 1 || no > lines {
				t.Fatalf("explanation %q after line %d of %d", e, last, lines)
			}
			last = no
		}
		if !r.Effective.AcceptedBySbatch && !hasError(r.Problems) {
			t.Fatalf("sbatch refuses the script, yet no error: %+v", r.Problems)
		}
		for _, ig := range r.Effective.IgnoredDirectives {
			if ig < 1 || ig > lines {
				t.Fatalf("ignored directive at line %d of %d", ig, lines)
			}
		}
		// With Windows line ends, sbatch refuses the script, and only
		// that changes: every other problem and value stays.
		if bytes.ContainsRune(data, '\r') || !bytes.ContainsRune(data, '\n') {
			return
		}
		crlf := Check("sommeil.sbatch", bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")), Given{})
		if crlf.Effective.AcceptedBySbatch {
			t.Fatal("a CRLF script is accepted")
		}
		if got, want := problemKeys(crlf.Problems, "sbatch-crlf"), problemKeys(r.Problems, "sbatch-crlf"); got != want {
			t.Fatalf("CRLF changed the problems:\n%s\nwant\n%s", got, want)
		}
		if !strings.Contains(problemKeys(crlf.Problems, ""), "sbatch-crlf") {
			t.Fatal("CRLF not reported")
		}
		a, b := crlf.Effective, r.Effective
		a.AcceptedBySbatch, b.AcceptedBySbatch = false, false
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("CRLF changed what Slurm retains: %+v, want %+v", a, b)
		}
	})
}

// needSlurm returns true when a Slurm controller answers. In CI, .ci/test
// starts a one-node Slurm, so a missing one is a failure.
func needSlurm(t *testing.T) {
	t.Helper()
	if os.Getenv("PRET_WINE") == "1" {
		t.Skip("sous Wine, pas de Slurm Windows : la comparaison avec Slurm est faite par les tests Linux")
	}
	_, err := exec.LookPath("sbatch")
	if err == nil {
		err = exec.Command("scontrol", "ping").Run()
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("a one-node Slurm is required in CI (.ci/test starts it): %v", err)
		}
		t.Skipf("no Slurm here: %v", err)
	}
}

var scontrolField = regexp.MustCompile(`(\S+?)=(\S*)`)

// scontrolMinutes reads TimeLimit: UNLIMITED, [D-]HH:MM:SS or MM:SS.
func scontrolMinutes(t *testing.T, v string) int {
	if v == "UNLIMITED" {
		return 0
	}
	days := 0
	if d, rest, ok := strings.Cut(v, "-"); ok {
		days, _ = strconv.Atoi(d)
		v = rest
	}
	parts := strings.Split(v, ":")
	n := []int{}
	for _, p := range parts {
		x, _ := strconv.Atoi(p)
		n = append(n, x)
	}
	switch len(n) {
	case 3:
		return days*1440 + n[0]*60 + n[1] + (n[2]+59)/60
	case 2:
		return days*1440 + n[0] + (n[1]+59)/60
	}
	t.Fatalf("TimeLimit %q", v)
	return 0
}

// scontrolMiB reads MinMemoryNode as scontrol prints it, by hand, not
// with ParseMem, the reader under test: 0, or a number and M, G or T.
func scontrolMiB(t *testing.T, v string) int64 {
	n, unit := v, int64(1)
	for suffix, mib := range map[string]int64{"M": 1, "G": 1 << 10, "T": 1 << 20} {
		if m, ok := strings.CutSuffix(v, suffix); ok {
			n, unit = m, mib
		}
	}
	x, err := strconv.ParseInt(n, 10, 64)
	if err != nil {
		t.Fatalf("MinMemoryNode %q", v)
	}
	return x * unit
}

// TestAgainstRealSlurm submits every script of the table to a real
// one-node Slurm with --hold, reads scontrol show job, cancels it, and
// checks that what the reader says Slurm retains is what Slurm retained.
func TestAgainstRealSlurm(t *testing.T) {
	needSlurm(t)
	defaultTime := partitionDefaultMinutes(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "sommeil.sbatch")
			os.WriteFile(path, []byte(c.script), 0o644)
			cmd := exec.Command("sbatch", "--hold", "--parsable", "sommeil.sbatch")
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			e := Check("sommeil.sbatch", []byte(c.script), Given{}).Effective
			if (err == nil) != e.AcceptedBySbatch {
				t.Fatalf("sbatch accepted=%v, reader says %v\n%s", err == nil, e.AcceptedBySbatch, out)
			}
			if err != nil {
				return
			}
			id := strings.TrimSpace(strings.Split(string(out), ";")[0])
			defer exec.Command("scancel", id).Run()
			show, err := exec.Command("scontrol", "show", "job", id).Output()
			if err != nil {
				t.Fatal(err)
			}
			f := map[string]string{}
			for _, m := range scontrolField.FindAllStringSubmatch(string(show), -1) {
				if _, seen := f[m[1]]; !seen {
					f[m[1]] = m[2]
				}
			}
			// Without --time, the partition's limit; --time=0 and
			// UNLIMITED are 0 (no limit) in the reader and in Slurm.
			tl := defaultTime
			if e.TimeLimitMinutes != nil {
				tl = *e.TimeLimitMinutes
			}
			wantOut := testenv.EditAll(e.Output, "%j", id)
			if !strings.HasPrefix(wantOut, "/") {
				wantOut = filepath.Join(f["WorkDir"], wantOut)
			}
			if f["JobName"] != e.JobName {
				t.Errorf("JobName: Slurm %q, reader %q", f["JobName"], e.JobName)
			}
			if got := scontrolMinutes(t, f["TimeLimit"]); got != tl {
				t.Errorf("TimeLimit: Slurm %s (%d min), reader %d", f["TimeLimit"], got, tl)
			}
			if f["StdOut"] != wantOut {
				t.Errorf("StdOut: Slurm %q, reader %q", f["StdOut"], wantOut)
			}
			if got := scontrolMiB(t, f["MinMemoryNode"]); got != e.MemMiB {
				t.Errorf("MinMemoryNode: Slurm %s, reader %d MiB", f["MinMemoryNode"], e.MemMiB)
			}
			if got, _ := strconv.Atoi(f["CPUs/Task"]); got != e.CPUsPerTask {
				t.Errorf("CPUs/Task: Slurm %s, reader %d", f["CPUs/Task"], e.CPUsPerTask)
			}
		})
	}
}

// partitionDefaultMinutes reads from the Slurm that answers the limit a
// job without --time gets in the default partition: its DefaultTime, or
// its MaxTime when it has none (0 for UNLIMITED). Never assumed: a real
// cluster has limits.
func partitionDefaultMinutes(t *testing.T) int {
	out, err := exec.Command("scontrol", "show", "partition", "--oneliner").Output()
	if err != nil {
		t.Fatalf("scontrol show partition: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := map[string]string{}
		for _, m := range scontrolField.FindAllStringSubmatch(line, -1) {
			f[m[1]] = m[2]
		}
		if f["Default"] != "YES" {
			continue
		}
		limit := f["DefaultTime"]
		if limit == "" || limit == "NONE" {
			limit = f["MaxTime"]
		}
		return scontrolMinutes(t, limit)
	}
	t.Fatalf("no default partition in\n%s", out)
	return 0
}

// problemKeys lists code, line and message of each problem but skip, one
// a line, to compare two reports.
func problemKeys(ps []checklist.Problem, skip checklist.Code) string {
	var b strings.Builder
	for _, p := range ps {
		if p.Code != skip {
			fmt.Fprintf(&b, "%s %s %d %s\n", p.Code, p.Severity, p.Line, p.Message)
		}
	}
	return b.String()
}

// TestCheckLinear: on each shape, twice the script costs at most about
// twice the work (lines and options looked at) and the allocations; a
// quadratic reader costs four times. The work is counted, not timed.
func TestCheckLinear(t *testing.T) {
	for _, s := range []struct{ name, head, repeat, tail string }{
		{"a directive a line", "#!/bin/bash\n", "#SBATCH -c 1\n", "hostname\nsleep 30\n"},
		{"glued short options", "#!/bin/bash\n", "#SBATCH -c1\n", "hostname\nsleep 30\n"},
		{"options on one line", "#!/bin/bash\n#SBATCH", " --mem=1G", "\nhostname\nsleep 30\n"},
		{"every option of the course", "#!/bin/bash\n", "#SBATCH --job-name=sommeil --output=sommeil-%j.out --time=00:02:00 --cpus-per-task=1 --mem=1G\n", "hostname\nsleep 30\n"},
		{"comments between directives", "#!/bin/bash\n", "# une note\n\n#SBATCH -t 2\n", "hostname\nsleep 30\n"},
		{"directives after hostname", "#!/bin/bash\nhostname\n", "#SBATCH --mem=1G\n", "sleep 30\n"},
		{"commands", "#!/bin/bash\n", "hostname\n", ""},
		// Each letter once wrote the group's whole word (outside tester: 1 GB of report).
		{"one group of short options", "#!/bin/bash\n#SBATCH -", "H", "\nhostname\nsleep 30\n"},
		// sbatch stops at the first word it refuses: one problem (outside tester: 128 MB of report).
		{"words that are no options", "#!/bin/bash\n#SBATCH", " x", "\nhostname\nsleep 30\n"},
	} {
		cost := func(n int) (work int, allocs uint64, said int) {
			script := []byte(s.head + strings.Repeat(s.repeat, n/len(s.repeat)) + s.tail)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			r := Check("sommeil.sbatch", script, Given{})
			runtime.ReadMemStats(&after)
			for _, l := range r.Explain {
				said += len(l)
			}
			for _, p := range r.Problems {
				said += len(p.Message)
			}
			return r.work, after.Mallocs - before.Mallocs, said
		}
		// A quadratic cost shows at any size; 1 MiB is livrables' cap.
		const n = 128 << 10
		w1, a1, s1 := cost(n)
		w2, a2, s2 := cost(2 * n)
		t.Logf("%s: work %d, %d allocs, %d bytes said; twice: %d, %d, %d", s.name, w1, a1, s1, w2, a2, s2)
		if float64(s2) > 2.1*float64(s1)+1024 {
			t.Errorf("%s: the report grows faster than the script: %d bytes at %d, %d at twice", s.name, s1, n, s2)
		}
		if float64(w2) > 2.1*float64(w1)+64 {
			t.Errorf("%s: work grows faster than the script: %d at %d bytes, %d at twice", s.name, w1, n, w2)
		}
		if float64(a2) > 2.6*float64(a1)+64 {
			t.Errorf("%s: allocations grow faster than the script: %d at %d bytes, %d at twice", s.name, a1, n, a2)
		}
	}
}

// TestOptionTableAgainstRealSlurm: sbatch's own getopt_long reads each
// option of longOptions and short, with a value glued and alone, and
// each beginning --a … --z, as readOptions does: refused or not, and
// for a beginning several options share, the same options. A line that
// sbatch refuses only once every option is read (--mem with
// --mem-per-cpu) comes first: nothing is submitted, and the first line
// sbatch writes is getopt's when getopt refuses the word.
func TestOptionTableAgainstRealSlurm(t *testing.T) {
	needSlurm(t)
	var probes []string
	for name := range longOptions {
		probes = append(probes, "--"+name+"=x", "--"+name)
	}
	for c := 'a'; c <= 'z'; c++ {
		probes = append(probes, "--"+string(c), "-"+string(c), "-"+strings.ToUpper(string(c)))
	}
	sort.Strings(probes)
	getopt := regexp.MustCompile(`unrecognized option|invalid option|is ambiguous|requires an argument|doesn't allow an argument`)
	dir := t.TempDir()
	for i, p := range probes {
		script := "#!/bin/bash\n#SBATCH --mem=1 --mem-per-cpu=1\n#SBATCH " + p + "\nhostname\n"
		path := filepath.Join(dir, fmt.Sprintf("p%d.sbatch", i))
		if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("sbatch", path).CombinedOutput()
		if err == nil {
			t.Fatalf("%s: sbatch accepted the script, it was to refuse it\n%s", p, out)
		}
		first, _, _ := strings.Cut(string(out), "\n")
		var why []string
		for _, o := range Parse("sommeil.sbatch", []byte(script)).Options {
			if o.Refused != "" {
				why = append(why, o.Refused)
			}
		}
		if getopt.MatchString(first) != (len(why) > 0) {
			t.Errorf("%s: sbatch says %q, the reader %q", p, first, why)
		}
		if !strings.Contains(first, "is ambiguous") {
			continue
		}
		var slurm, ours []string
		for _, m := range regexp.MustCompile(`'--([a-z-]+)'`).FindAllStringSubmatch(first, -1)[1:] {
			slurm = append(slurm, m[1])
		}
		for name := range longOptions {
			if strings.HasPrefix(name, p[2:]) {
				ours = append(ours, name)
			}
		}
		sort.Strings(slurm)
		sort.Strings(ours)
		if !slices.Equal(slurm, ours) {
			t.Errorf("%s: sbatch's options %v, the table's %v", p, slurm, ours)
		}
	}
}

// TestFirstRefusalSaid: sbatch stops at the first word it refuses; the
// report says that one, counts the others, and explains no more of them.
func TestFirstRefusalSaid(t *testing.T) {
	r := Check("sommeil.sbatch", []byte("#!/bin/bash\n#SBATCH x y\n#SBATCH --zzz\n#SBATCH --job-name=sommeil\nhostname\nsleep 30\n"), Given{})
	var refused []string
	for _, p := range r.Problems {
		if p.Code == checklist.CodeSbatchRefusedDirective {
			refused = append(refused, p.Message)
		}
	}
	if len(refused) != 1 || !strings.Contains(refused[0], "« x »") || !strings.Contains(refused[0], "et 2 autres mots refusés plus loin") {
		t.Errorf("refusals %q, want the first with the count of the others", refused)
	}
	if said := strings.Join(r.Explain, "\n"); strings.Contains(said, "« y »") || strings.Contains(said, "zzz") {
		t.Errorf("a refusal after sbatch stopped is explained:\n%s", said)
	}
}
