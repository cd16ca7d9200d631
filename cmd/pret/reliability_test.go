package main

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/keys"
)

type home struct {
	t   *testing.T
	dir string
	env []string
}

func newHome(t *testing.T) *home { return homeAt(t, t.TempDir()) }

// homeAt is dir as the home of pret runs in separate processes.
func homeAt(t *testing.T, dir string) *home {
	return &home{t: t, dir: dir, env: append(environ(dir),
		"PATH="+os.Getenv("PATH"),
		"NO_COLOR=1",
	)}
}

func (h *home) command(stdin string, args ...string) *exec.Cmd {
	cmd := exec.Command(binary(h.t), args...)
	cmd.Env, cmd.Dir = h.env, h.dir
	cmd.Stdin = strings.NewReader(stdin)
	return cmd
}

func finish(t *testing.T, cmd *exec.Cmd, out, errb *bytes.Buffer, err error) result {
	t.Helper()
	r := result{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
		t.Fatalf("pret %v crashed:\n%s", cmd.Args[1:], r.stderr)
	}
	return r
}

func (h *home) pret(stdin string, args ...string) result {
	h.t.Helper()
	cmd := h.command(stdin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	return finish(h.t, cmd, &out, &errb, cmd.Run())
}

// must is pret, failing the test unless it exits with code.
func (h *home) must(code int, stdin string, args ...string) result {
	h.t.Helper()
	r := h.pret(stdin, args...)
	must(h.t, r, code, args...)
	return r
}

func (h *home) path(rel string) string { return filepath.Join(h.dir, rel) }

// peakKiB is pret's peak resident memory, measured by /usr/bin/time. The
// rusage of a child started from this test would not do: Go starts it
// with vfork, and Linux carries the parent's peak into the child's
// ru_maxrss across execve. Noise only ever adds (on a loaded machine the
// collector falls behind and the heap overshoots), so the figure is the
// least of three runs, after this process has returned its own garbage.
func (h *home) peakKiB(args ...string) int64 {
	h.t.Helper()
	return h.peakUnder(0, args...) // never under 0: three runs
}

// peakOnce runs pret under /usr/bin/time: its peak and its result,
// stdout through a file (a 100,000-file report is megabytes).
func (h *home) peakOnce(args ...string) (int64, result) {
	h.t.Helper()
	tool := testenv.NeedTool(h.t, "/usr/bin/time")
	cmd := exec.Command(tool, append([]string{"-f", "%M", binary(h.t)}, args...)...)
	cmd.Env, cmd.Dir = h.env, h.dir
	out, err := os.CreateTemp(h.t.TempDir(), "stdout")
	if err != nil {
		h.t.Fatal(err)
	}
	defer out.Close()
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = out, &errb
	cmd.Run()
	lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
	kib, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
	if err != nil {
		h.t.Fatalf("/usr/bin/time: %q", errb.String())
	}
	stdout, err := os.ReadFile(out.Name())
	if err != nil {
		h.t.Fatal(err)
	}
	return kib, result{stdout: string(stdout), stderr: strings.Join(lines[:len(lines)-1], "\n"), code: cmd.ProcessState.ExitCode()}
}

// memCapKiB is what a bounded run may take: pret doing nothing (its
// binary and runtime, measured here, about 15 MiB) plus 32 MiB for a
// file under its 1 MiB cap and the work on it (10 MiB measured at most)
// with room for noise. A 50 MB file read whole would go past it.
func (h *home) memCapKiB() int64 {
	h.t.Helper()
	return h.peakKiB("--version") + 32<<10
}

const secretPass = "ne-jamais-afficher-7Q"

// everyCommand runs each command of pret, in every format, in a home
// with a key and an acces.md, and returns what they printed.
func everyCommand(t *testing.T, h *home) []result {
	var runs []result
	add := func(stdin string, args ...string) { runs = append(runs, h.pret(stdin, args...)) }
	add(secretPass+"\n", "cle", "--passphrase-file", "-")
	add("", "cle")
	add("", "empreinte")
	add("", "empreinte", "--art", h.path(".ssh/id_ed25519_romeo"))
	add("", "acces", "--statut", "demande")
	add("pas la bonne\n", "signer", "--passphrase-file", "-")
	add(secretPass+"\n", "signer", "--passphrase-file", "-")
	add(secretPass+"\n", "acces", "--statut", "demande", "--signer", "--passphrase-file", "-")
	for _, f := range checklist.Formats {
		add("", "verifier", "--format", f)
		add("", "valider", "--format", f, h.dir)
		add("", "valider", "--exiger-signature", "--format", f, h.dir)
	}
	add("", "--help")
	add("", "version")
	for _, f := range checklist.Formats {
		add("", "livrables", "--format", f)
	}
	for _, c := range []string{"cle", "empreinte", "acces", "signer", "verifier", "valider", "livrables", "modele", "sunk", "assistant"} {
		add("", c, "--help")
	}
	add("", "assistant")
	return runs
}

// TestNoNetwork runs every command under strace and fails on any
// Internet or netlink socket: pret never connects anywhere.
func TestNoNetwork(t *testing.T) {
	notShort(t)
	strace := testenv.NeedTool(t, "strace")
	forbidden := regexp.MustCompile(`socket\((AF_INET|AF_INET6|AF_NETLINK|PF_INET|PF_INET6|PF_NETLINK)\b|connect\(`)

	// The detector itself: a process that does open an Internet socket
	// (to the loopback discard port) must be caught.
	trace := filepath.Join(t.TempDir(), "canary.trace")
	exec.Command(strace, "-f", "-e", "trace=socket,connect", "-o", trace, "bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/9 || true").Run()
	if data, _ := os.ReadFile(trace); !forbidden.Match(data) {
		t.Fatalf("the detector misses a real socket:\n%s", data)
	}

	h := newHome(t)
	args := [][]string{{"cle", "--passphrase-file", "-"}, {"cle"}, {"empreinte"}, {"empreinte", "--art"}, {"acces", "--statut", "demande"},
		{"signer", "--passphrase-file", "-"},
		{"--help"}, {"version"}, {"assistant"}}
	for _, f := range checklist.Formats {
		args = append(args, []string{"verifier", "--format", f}, []string{"valider", "--format", f, "."}, []string{"livrables", "--format", f})
	}
	args = append(args, []string{"modele", "sommeil.sbatch"}, []string{"modele", "sommeil-job.yaml"})
	os.WriteFile(h.path("values.yaml"), []byte("scheduler:\n  enabled: true\nslurmConfig:\n  KillWait: 60\n"), 0o644)
	os.WriteFile(h.path("policy.yaml"), []byte("base:\n  spec:\n    schedulerName: slurm-scheduler\n"), 0o644)
	for _, f := range checklist.Formats {
		args = append(args, []string{"sunk", "--valeurs", "values.yaml", "--politique", "policy.yaml", "--format", f})
	}
	for i, a := range args {
		trace := filepath.Join(t.TempDir(), fmt.Sprintf("%d.trace", i))
		cmd := exec.Command(strace, append([]string{"-f", "-e", "trace=socket,connect", "-o", trace, binary(t)}, a...)...)
		cmd.Env, cmd.Dir = h.env, h.dir
		cmd.Stdin = strings.NewReader(secretPass + "\n")
		cmd.Run()
		data, err := os.ReadFile(trace)
		if err != nil || len(data) == 0 {
			t.Fatalf("no trace for pret %v: %v", a, err)
		}
		if m := forbidden.Find(data); m != nil {
			t.Errorf("pret %v opened a network socket: %s", a, m)
		}
	}
}

// TestSecretsNeverOutput greps every output of every command for the
// passphrase and for the private key's lines, including a validation run
// over a folder where the private key was pasted into acces.md.
func TestSecretsNeverOutput(t *testing.T) {
	t.Parallel()
	notShort(t)
	h := newHome(t)
	runs := everyCommand(t, h)
	priv := readFile(t, h.path(".ssh/id_ed25519_romeo"))
	leak := filepath.Join(h.dir, "fuite")
	os.MkdirAll(leak, 0o755)
	acces, _ := os.ReadFile(h.path("acces.md"))
	os.WriteFile(filepath.Join(leak, "acces.md"), append(append(acces, '\n'), priv...), 0o644)
	leakRuns := map[string]result{} // by format
	for _, f := range checklist.Formats {
		r := h.pret("", "valider", "--format", f, leak)
		leakRuns[f] = r
		runs = append(runs, r)
	}
	os.WriteFile(filepath.Join(leak, "cle.txt"), priv, 0o644)
	runs = append(runs, h.pret("", "empreinte", filepath.Join(leak, "cle.txt")))
	runs = append(runs, h.pret(secretPass+"\n", "cle", "--passphrase-file", "-"))

	var secretLines []string
	for _, l := range strings.Split(string(priv), "\n") {
		// The short tail line of the base64 could match by chance.
		if len(l) >= 24 && !strings.HasPrefix(l, "-----") {
			secretLines = append(secretLines, l)
		}
	}
	if len(runs) < 20 || len(secretLines) < 3 {
		t.Fatalf("too little exercised: %d runs, %d key lines", len(runs), len(secretLines))
	}
	for _, r := range runs {
		for _, out := range []string{r.stdout, r.stderr} {
			if strings.Contains(out, secretPass) {
				t.Fatalf("the passphrase was printed:\n%s", out)
			}
			for _, l := range secretLines {
				if strings.Contains(out, l) || strings.Contains(out, l[:24]) {
					t.Fatalf("private key material was printed:\n%s", out)
				}
			}
		}
	}
	for f, r := range leakRuns {
		if !strings.Contains(r.stdout, "private-key-leak") {
			t.Errorf("pret valider --format %s: the leak was not reported:\n%s", f, r.stdout)
		}
	}
}

// TestHostileInput: whatever a file holds, pret answers with an exit code
// and a French error, never a crash, and stops reading at its bounds.
func TestHostileInput(t *testing.T) {
	notShort(t)
	h := newHome(t)
	dir := filepath.Join(h.dir, "hostile")
	os.MkdirAll(dir, 0o755)
	random := make([]byte, 4096)
	rand.Read(random)
	priv, _, _ := keys.Generate(rand.Reader, "x", []byte("passphrase"))
	keyFiles := map[string][]byte{
		"random":        random,
		"truncated":     priv[:len(priv)/2],
		"overflow":      []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA/////w==\n-----END OPENSSH PRIVATE KEY-----\n"),
		"bad-base64":    []byte("-----BEGIN OPENSSH PRIVATE KEY-----\n*** pas du base64 ***\n-----END OPENSSH PRIVATE KEY-----\n"),
		"huge.pub":      bytes.Repeat([]byte("ssh-ed25519 AAAA"), 3<<20/16),
		"empty":         nil,
		"rsa-bad-block": []byte("-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n"),
	}
	for name, data := range keyFiles {
		p := filepath.Join(dir, name)
		os.WriteFile(p, data, 0o600)
		r := h.pret("", "empreinte", p)
		if r.code != 1 || !strings.HasPrefix(r.stderr, "pret: erreur : ") {
			t.Errorf("empreinte %s: exit %d\n%s", name, r.code, r.stderr)
		}
		// The same bytes at the key path: refused, never replaced.
		os.MkdirAll(h.path(".ssh"), 0o700)
		os.WriteFile(h.path(".ssh/id_ed25519_romeo"), data, 0o600)
		r = h.pret(secretPass+"\n", "cle", "--passphrase-file", "-")
		if r.code != 1 || !strings.HasPrefix(r.stderr, "pret: erreur : ") {
			t.Errorf("cle over %s: exit %d\n%s", name, r.code, r.stderr)
		}
		if after, _ := os.ReadFile(h.path(".ssh/id_ed25519_romeo")); !bytes.Equal(after, data) {
			t.Errorf("cle over %s: the file was changed", name)
		}
	}
	// Peak memory is measured in the long run (PRET_LONG=1, CI): three
	// runs of each under /usr/bin/time.
	long := os.Getenv(testenv.LongEnv) == "1"
	var memCap int64
	if long {
		memCap = h.memCapKiB()
		if kib := h.peakKiB("empreinte", filepath.Join(dir, "huge.pub")); kib > memCap {
			t.Errorf("3 MB .pub: %d KiB resident, over %d KiB", kib, memCap)
		}
	}
	os.RemoveAll(h.path(".ssh"))

	accesFiles := map[string]struct {
		data []byte
		code string
	}{
		"random":      {random, "not-text"},
		"50MB":        {bytes.Repeat([]byte("a"), 50<<20), "too-large"},
		"nesting":     {[]byte(strings.Repeat(">", 200000) + strings.Repeat(" - * + 1. ", 20000) + "\n"), "too-large"},
		"long line":   {[]byte(strings.Repeat("SHA256:", 50000) + strings.Repeat("é", 200000)), "too-large"},
		"invalid utf": {[]byte("Date de la demande : 2026-10-01\n\xff\xfe\n"), "not-text"},
		"many lines":  {bytes.Repeat([]byte("| a | b |\n"), 90000), "too-large"},
	}
	for name, c := range accesFiles {
		d := filepath.Join(dir, "acces-"+strings.ReplaceAll(name, " ", "-"))
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "acces.md"), c.data, 0o644)
		r := h.pret("", "valider", "--format", "json", d)
		if r.code != 1 || !strings.Contains(r.stdout, `"code": "`+c.code+`"`) {
			t.Errorf("%s: exit %d, want code %s\n%.500s", name, r.code, c.code, r.stdout)
		}
		if long {
			if kib := h.peakKiB("valider", d); kib > memCap {
				t.Errorf("%s: %d KiB resident, over %d KiB: reading is not bounded", name, kib, memCap)
			}
		}
	}
}

// TestEightConcurrentCle: eight pret cle started together on a fresh home
// end with one key, and each reports its fingerprint.
func TestEightConcurrentCle(t *testing.T) {
	h := newHome(t)
	cmds := make([]*exec.Cmd, 8)
	outs := make([]*bytes.Buffer, 8)
	errs := make([]*bytes.Buffer, 8)
	for i := range cmds {
		cmds[i] = h.command(secretPass+"\n", "cle", "--passphrase-file", "-")
		outs[i], errs[i] = &bytes.Buffer{}, &bytes.Buffer{}
		cmds[i].Stdout, cmds[i].Stderr = outs[i], errs[i]
	}
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	var lines []string
	for i, c := range cmds {
		r := finish(t, c, outs[i], errs[i], c.Wait())
		if r.code != 0 {
			t.Fatalf("process %d: exit %d\n%s", i, r.code, r.stderr)
		}
		ls := strings.Split(strings.TrimSpace(r.stdout), "\n")
		lines = append(lines, ls[len(ls)-1])
	}
	for _, l := range lines {
		if l != lines[0] || !strings.HasSuffix(l, "seance-novembre (ED25519)") {
			t.Fatalf("fingerprints differ: %q", lines)
		}
	}
	entries, _ := os.ReadDir(h.path(".ssh"))
	if len(entries) != 2 {
		t.Fatalf("files in the key folder: %v", entries)
	}
	want, _ := exec.Command("ssh-keygen", "-lf", h.path(".ssh/id_ed25519_romeo.pub")).Output()
	if strings.TrimSpace(string(want)) != lines[0] {
		t.Fatalf("on disk %q, reported %q", want, lines[0])
	}
}

// needRoot is for the cases that mount file systems: they run in CI,
// which is root.
func needRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs or a read-only bind needs root; CI runs as root")
	}
}

func mount(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
		t.Fatalf("mount %v: %v %s", args, err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", args[len(args)-1]).Run() })
}

// TestDiskFull: a key folder with no room, or mounted read-only.
// Whatever byte or file the space runs out at, pret says so in French
// and leaves nothing behind.
func TestDiskFull(t *testing.T) {
	notShort(t)
	needRoot(t)
	for _, opts := range []string{"size=4k", "size=4k,nr_inodes=2", "size=4k,nr_inodes=3", "size=8k,nr_inodes=3", "ro"} {
		t.Run(opts, func(t *testing.T) {
			h := newHome(t)
			os.MkdirAll(h.path(".ssh"), 0o700)
			mount(t, "-t", "tmpfs", "-o", opts+",mode=0700", "tmpfs", h.path(".ssh"))
			r := h.pret(secretPass+"\n", "cle", "--passphrase-file", "-")
			entries, _ := os.ReadDir(h.path(".ssh"))
			if r.code == 0 {
				// This size was enough: the key is whole.
				if len(entries) != 2 {
					t.Fatalf("success with %v", entries)
				}
				return
			}
			says(t, r, 1, map[bool]string{false: "plus de place sur le disque", true: "lecture seule"}[opts == "ro"], "pret: conseil : ")
			if len(entries) != 0 {
				t.Fatalf("left behind: %v", entries)
			}
		})
	}
}

// TestReportOnAFullDisk: --sortie on a disk with no room says so, and
// its advice is room, not another folder (outside tester); nothing is
// left behind.
func TestReportOnAFullDisk(t *testing.T) {
	notShort(t)
	needRoot(t)
	h := newHome(t)
	os.MkdirAll(h.path("rendus/kim"), 0o755)
	os.WriteFile(h.path("rendus/kim/acces.md"), []byte(accesPage(fpOne)), 0o644)
	os.MkdirAll(h.path("plein"), 0o755)
	mount(t, "-t", "tmpfs", "-o", "size=4k", "tmpfs", h.path("plein"))
	r := h.pret("", "valider", "--format", "html", "--sortie", "plein/rapport.html", "rendus")
	says(t, r, 1, "plus de place sur le disque", "pret: conseil : libérez de la place")
	if entries, _ := os.ReadDir(h.path("plein")); len(entries) != 0 {
		t.Fatalf("left behind: %v", entries)
	}
}

// TestAccesAlwaysWhole: acces.md replaced again and again, some runs
// interrupted at random moments, while a reader watches it: every read is
// one whole version.
func TestAccesAlwaysWhole(t *testing.T) {
	t.Parallel()
	notShort(t)
	h := newHome(t)
	putKey(t, h.dir)
	h.must(0, "", "acces", "--statut", "demande", "--date", "2026-10-01")
	stop := make(chan struct{})
	var bad []string
	var reads int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			data, err := os.ReadFile(h.path("acces.md"))
			if err != nil {
				bad = append(bad, "missing: "+err.Error())
				continue
			}
			reads++
			res := acces.Validate(data, acces.Rules{KeyName: "id_ed25519_romeo.pub", SessionDay: testenv.Day(testenv.SessionDay), Today: testenv.Day(testenv.Today)})
			if !res.Valid() || !bytes.HasSuffix(data, []byte("organisateurs.\n")) {
				bad = append(bad, string(data))
			}
		}
	}()
	for i := 0; i < 24; i++ {
		status := []string{"demande", "verifie"}[i%2]
		// Dates never go back: a check is never before the request.
		cmd := h.command("", "acces", "--statut", status, "--date", fmt.Sprintf("2026-10-%02d", 1+i/2), "--force")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			time.Sleep(time.Duration(i%7) * time.Millisecond)
			cmd.Process.Signal(syscall.SIGINT)
		}
		cmd.Wait()
		// Before pret installs its handler, SIGINT ends it by the signal
		// itself (130 to a shell); nothing is written that early.
		ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if code := cmd.ProcessState.ExitCode(); code != 0 && code != 130 && !(ws.Signaled() && ws.Signal() == syscall.SIGINT) {
			t.Errorf("run %d: exit %d", i, code)
		}
	}
	close(stop)
	wg.Wait()
	if len(bad) > 0 {
		t.Fatalf("%d of %d reads saw a partial or missing acces.md, e.g.:\n%s", len(bad), reads, bad[0])
	}
	noTempFiles(t, h.dir)
	if reads < 10 {
		t.Fatalf("only %d reads", reads)
	}
}
