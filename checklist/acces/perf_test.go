package acces

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/testenv"
)

// worstShapes are the acces.md files that cost the validator most for
// their size: one long paragraph, one long quote, table rows, one long
// line, many short blocks, near-copies of the sentence, a key block.
// Each takes the size in bytes it should reach.
var worstShapes = []struct {
	name string
	make func(size int) string
}{
	{"paragraph", func(n int) string { return strings.Repeat("a\n", n/2) }},
	{"quote", func(n int) string { return strings.Repeat("> a a\n", n/6) }},
	{"table-rows", func(n int) string { return strings.Repeat("|a|b|\n", n/6) }},
	{"one-line", func(n int) string { return strings.Repeat("a ", n/2) }},
	{"short-items", func(n int) string { return strings.Repeat("- a\n", n/4) }},
	{"near-sentence", func(n int) string {
		const l = "Connexion uniquement vers le nœud de login indiqué par\n"
		return strings.Repeat(l, n/len(l))
	}},
	{"key-block", func(n int) string {
		return "-----BEGIN OPENSSH PRIVATE KEY-----\n" + strings.Repeat("b3BlbnNzaC1rZXktdjEAAAAA\n", n/25)
	}},
	{"one-line-fingerprints", func(n int) string { return strings.Repeat("SHA256:", n/7) }},
	{"one-line-dates", func(n int) string { return strings.Repeat("demandé 20/10/2026 ", n/20) }},
	{"dates-paths", func(n int) string {
		return strings.Repeat("Demandé le 20/10/2026 ~/.ssh/a.pub SHA256:x 256\n", n/50)
	}},
	// Shapes that cost a CommonMark parser more than their size: nested
	// containers on one line, link definitions, open brackets and
	// emphasis runs.
	{"nested-quotes", func(n int) string { return strings.Repeat(">", n) }},
	{"nested-lists", func(n int) string { return strings.Repeat("1. ", n/3) }},
	{"nested-mix", func(n int) string { return strings.Repeat("> - 1) + ", n/9) }},
	{"link-definitions", func(n int) string { return strings.Repeat("[a]: b\n", n/7) }},
	{"brackets", func(n int) string { return strings.Repeat("[", n) }},
	{"emphasis", func(n int) string { return strings.Repeat("*_", n/2) }},
	{"html-tags", func(n int) string { return strings.Repeat("<a>", n/3) }},
	{"entities", func(n int) string { return strings.Repeat("n&oelig;ud \\. ", n/14) }},
	{"code-spans", func(n int) string { return strings.Repeat("`a` ", n/4) }},
	{"fences", func(n int) string { return strings.Repeat("```\n", n/4) }},
}

// lineTokens are the line-level tokens the rules (and the leak detector
// before them) look at: each, repeated to the cap, is a generated worst
// shape, so a rule that keeps something per occurrence, per word or per
// line shows in the peak.
var lineTokens = []string{
	"RSA ", "ECDSA ", "DSA ", "ed25519-sk ", "ssh-ed25519 ", "ED25519 ", "ssh-rsa ",
	"SHA256:", "SHA256:abc\n", "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU ",
	"MD5:01:23:45:67:89:ab:cd:ef:01:23:45:67:89:ab:cd:ef ",
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n",
	"AAAAAAAAAAAAAAAAAAAA ",
	"-----BEGIN", "-----BEGIN\n", "-----BEGIN OPENSSH PRIVATE KEY-----\n", "-----END OPENSSH PRIVATE KEY-----\n",
	"-----\n", "BEGIN PRIVATE\n", "Proc-Type: 4,ENCRYPTED\n", "PuTTY-User-Key-File-3: x\n", "Private-Lines: 1\n",
	"```", "```\n", "|", "|\n", "|a|b|", ">", ">\n", "> ", "- ", "- \n", "# \n", "1. a\n",
	"2026-10-20 ", "20/10/2026\n", "le 1er janvier 2026 ", "octobre ", "Date de la demande : 2026-10-20\n",
	"~/.ssh/id_ed25519_romeo.pub ", "~/.ssh/a.pub\n",
	"b3BlbnNzaC1rZXktdjE", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n", "MIIEowIBAAKCAQEA\n",
	"Zm9vYmFyYmF6cXV4cXV1eFlvV0xrd0pYcEZzSzl3Q2c0\n", "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9f ",
	"\u00a0", "\u00a0\n", "\r\n", "\r", "\n", "a\r\n", "_a_ *b* `c` ", "«", "é",
	"<!-- pret:signature -->\n", "-----BEGIN SSH SIGNATURE-----\n",
	"Connexion uniquement vers le nœud de login indiqué par les organisateurs.\n",
}

// shape is a file text made on demand: a child process measuring one
// shape builds that one only, so the others do not raise the heap the
// garbage collector paces itself on.
type shape struct {
	name string
	make func() string
}

// generatedShapes repeats each of lineTokens to n bytes, then mixes them
// at random (a fixed seed per mix): short lines, very long lines, and
// every pairing of tokens the rules could meet on one line.
func generatedShapes(n int) []shape {
	var out []shape
	for i, tok := range lineTokens {
		out = append(out, shape{fmt.Sprintf("token-%02d-%q", i, tok), func() string { return strings.Repeat(tok, n/len(tok)) }})
	}
	for seed := range 6 {
		out = append(out, shape{fmt.Sprintf("mix-%d", seed), func() string {
			rng := rand.New(rand.NewPCG(uint64(seed), 11))
			var b strings.Builder
			for b.Len() < n-128 {
				b.WriteString(lineTokens[rng.IntN(len(lineTokens))])
				switch seed % 3 {
				case 1: // short lines
					b.WriteByte('\n')
				case 2: // words on long lines
					if rng.IntN(200) == 0 {
						b.WriteByte('\n')
					}
				}
			}
			return b.String()
		}})
	}
	return out
}

// BenchmarkValidateWorstShapes: go test ./checklist/acces -run '^$' -bench WorstShapes -benchmem
func BenchmarkValidateWorstShapes(b *testing.B) {
	// At the cap, and at the largest size read as Markdown.
	for _, size := range []int{MaxAccessSize - 64, maxMarkdown} {
		for _, s := range worstShapes {
			data := []byte(s.make(size))
			b.Run(fmt.Sprintf("%s-%dKiB", s.name, size>>10), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(data)))
				for i := 0; i < b.N; i++ {
					Validate(data, Rules{})
				}
			})
		}
	}
	b.Run("table-90000-rows", func(b *testing.B) {
		data := []byte(strings.Repeat("| élément | valeur |\n", 90000)[:MaxAccessSize-64])
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			Validate(data, Rules{})
		}
	})
}

// cost is what one validation allocates.
func cost(data []byte) (bytes, allocs uint64) { return costRules(data, Rules{}) }

func costRules(data []byte, rl Rules) (bytes, allocs uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	Validate(data, rl)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs
}

// TestValidateLinear: for every worst shape, twice the input costs at most
// about twice the bytes and allocations (a quadratic validator costs four
// times). No time is measured: allocations do not depend on the load.
func TestValidateLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("plusieurs secondes : sans -short")
	}
	const n = 128 << 10 // and twice: a quadratic cost shows at any size
	for _, s := range worstShapes {
		// Each shape fills the cap without passing it: a shape cut short
		// by too-large would measure nothing.
		if l := len(s.make(MaxAccessSize - 64)); l > MaxAccessSize || l < MaxAccessSize*9/10 {
			t.Fatalf("%s: %d bytes at the cap", s.name, l)
		}
		b1, a1 := cost([]byte(s.make(n)))
		b2, a2 := cost([]byte(s.make(2 * n)))
		t.Logf("%s: %d B, %d allocs at %d bytes; %d B, %d allocs at twice", s.name, b1, a1, n, b2, a2)
		if float64(b2) > 2.6*float64(b1)+64<<10 {
			t.Errorf("%s: bytes grow faster than the input: %d at %d bytes, %d at %d", s.name, b1, n, b2, 2*n)
		}
		if float64(a2) > 2.6*float64(a1)+64 {
			t.Errorf("%s: allocations grow faster than the input: %d at %d bytes, %d at %d", s.name, a1, n, a2, 2*n)
		}
	}
}

// procStatus reads a "kB" field of /proc/self/status.
func procStatus(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	return -1
}

// TestValidatePeakMemory validates each worst shape at the 1 MiB cap in a
// child process and reads the growth of its peak resident memory (VmHWM,
// reset after a GC): under 16 MiB for each. The garbage collector runs at
// its default pace, as in pret.
func TestValidatePeakMemory(t *testing.T) {
	testenv.Long(t)
	if name := os.Getenv("PRET_PEAK_SHAPE"); name != "" {
		for _, s := range peakShapes() {
			if s.name == name {
				data := []byte(s.make())
				runtime.GC()
				debug.FreeOSMemory()
				// Writing 5 to clear_refs resets the peak (VmHWM) to the
				// resident size now, so the peak read after is Validate's.
				if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
					fmt.Printf("clear_refs: %v\n", err)
					return
				}
				before := procStatus("VmRSS")
				Validate(data, Rules{OnlineText: strings.HasPrefix(name, "online-")})
				fmt.Printf("peak-growth-kib %d\n", procStatus("VmHWM")-before)
			}
		}
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("VmHWM is read from /proc on Linux")
	}
	if raceEnabled {
		t.Skip("under -race, shadow memory is counted too; the ordinary run measures pret's")
	}
	worst, worstName := int64(0), ""
	for _, s := range peakShapes() {
		cmd := exec.Command(os.Args[0], "-test.run=^TestValidatePeakMemory$")
		// A concurrent GC starved of CPU on a loaded machine lets the heap
		// run past its goal, so the peak would measure the machine's load.
		// Stop-the-world collections keep the heap at its goal: the peak
		// then measures what Validate holds, the same on any machine.
		cmd.Env = append(os.Environ(), "PRET_PEAK_SHAPE="+s.name, "GODEBUG=gcstoptheworld=1")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", s.name, err, out)
		}
		var kib int64 = -1
		for _, l := range strings.Split(string(out), "\n") {
			if v, ok := strings.CutPrefix(l, "peak-growth-kib "); ok {
				kib, _ = strconv.ParseInt(v, 10, 64)
			}
		}
		if kib < 0 {
			t.Fatalf("%s: no measure in %q", s.name, out)
		}
		t.Logf("%s at 1 MiB: peak grew by %d KiB", s.name, kib)
		if kib > worst {
			worst, worstName = kib, s.name
		}
		if kib > peakBoundKiB {
			t.Errorf("%s at 1 MiB: peak memory grew by %d KiB, over %d KiB", s.name, kib, peakBoundKiB)
		}
	}
	t.Logf("worst: %s, %d KiB", worstName, worst)
}

// peakBoundKiB is the growth of the peak allowed for validating one file
// at the cap: organisateurs.md asks for a 1 MiB file validated in under
// 16 MiB; pret's own code and runtime take about 12 MiB before reading
// anything, so the validation itself must stay well under the rest.
const peakBoundKiB = 16 << 10

// peakShapes are the worst shapes and the generated ones, each at the
// cap (the cap itself plus one byte is refused unread, too-large).
func peakShapes() []shape {
	var out []shape
	for _, s := range worstShapes {
		// At the cap for the leak detector; at 16 KiB, the most goldmark reads.
		out = append(out, shape{s.name, func() string { return s.make(MaxAccessSize - 64) }},
			shape{s.name + "-16KiB", func() string { return s.make(maxMarkdown) }})
	}
	// Online texts, read as HTML to the cap: one paragraph of paths, of
	// dates, of words, of colons; one table row of cells; one line of
	// <pre> (outside testers).
	for _, o := range [][3]string{{"paths", "<p>", ".ssh/a.pub "}, {"dates", "<p>", "demande 20/10 "}, {"words", "<p>", "x "},
		{"colons", "<p>", "12:"}, {"cells", "<table><tr>", "<td>20/10</td>"}, {"pre", "<pre>", "x y "}} {
		out = append(out, shape{"online-" + o[0], func() string {
			return o[1] + strings.Repeat(o[2], (MaxAccessSize-64)/len(o[2]))
		}})
	}
	return append(out, generatedShapes(MaxAccessSize)...)
}

// TestProblemsPerCodeBounded: 1 400 lines of malformed fingerprints (under the 16 KiB read as Markdown) give
// ten bad-fingerprint problems, the last counting the others.
func TestProblemsPerCodeBounded(t *testing.T) {
	r := Validate([]byte(strings.Repeat("SHA256:abc\n", 1400)), Rules{})
	n, last := 0, ""
	for _, p := range r.Problems {
		if p.Code == "bad-fingerprint" {
			n, last = n+1, p.Message
		}
	}
	if n != maxPerCode || !strings.Contains(last, "autres problèmes bad-fingerprint plus loin") {
		t.Fatalf("%d bad-fingerprint problems: %+v", n, r.Problems[:min(len(r.Problems), 12)])
	}
}
