package acces

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// The scanners are loops; each pattern below is what its loop must find,
// written as the regular expression a reader checks it against.
var (
	typeWordPattern = regexp.MustCompile(`[a-zA-Z0-9_-]{3,}`)
	pathWordPattern = regexp.MustCompile("[^ \t`\"'()<>\\[\\]|*,;\u00a0«»\u202f]+")
	tooDeepPattern  = regexp.MustCompile(`(?m)^(?:[ \t]*(?:>|[-+*][ \t]|[0-9]{1,9}[.)][ \t])){17}`)
)

func checkScanners(t *testing.T, s string) {
	t.Helper()
	collect := func(in func(rune) bool, min int) (out [][]int) {
		for from, to := range runs(s, in) {
			if to-from >= min {
				out = append(out, []int{from, to})
			}
		}
		return out
	}
	for _, c := range []struct {
		name string
		re   *regexp.Regexp
		got  [][]int
	}{
		{"type words", typeWordPattern, collect(isTypeRune, 3)},
		{"path words", pathWordPattern, collect(func(r rune) bool { return !strings.ContainsRune(pathStops, r) }, 1)},
	} {
		if want := c.re.FindAllStringIndex(s, -1); !equalRanges(c.got, want) {
			t.Fatalf("%s of %q: %v, the pattern finds %v", c.name, s, c.got, want)
		}
	}
	if got, want := tooDeep(s), tooDeepPattern.MatchString(s); got != want {
		t.Fatalf("tooDeep(%q) = %v, the pattern says %v", s, got, want)
	}
}

func equalRanges(a, b [][]int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i][0] != b[i][0] || a[i][1] != b[i][1] {
			return false
		}
	}
	return true
}

// TestScannersMatchTheirPatterns: on pieces of pages, markers and
// fingerprints glued at random, each loop finds what its pattern finds.
func TestScannersMatchTheirPatterns(t *testing.T) {
	pieces := []string{"a", "Z", "9", "_", "-", "+", "/", ":", ".", ")", ">", " ", "\t", "\n", "*", "é", "«", "\u00a0",
		"\xff", "md5:", "MD5:", "ab", "0F", "12.", "3)", "- ", "> ", "ed25519", "~/.ssh/", "`", "|", "\"", "AAAA", "SHA256:"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(60) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		checkScanners(t, b.String())
	}
	fp := "12:f8:7e:78:61:b4:bf:e2:de:24:15:96:4e:d4:72:53"
	for _, s := range []string{fp, "MD5:" + fp, "md5:" + fp + ":", fp + "a", fp[:len(fp)-1],
		strings.Repeat("> ", 16) + "x", strings.Repeat("> ", 17) + "x", strings.Repeat(" - 1. ", 9), "a\n" + strings.Repeat(">", 17)} {
		checkScanners(t, s)
	}
}

func FuzzScannersMatchTheirPatterns(f *testing.F) {
	f.Add("Clé : ~/.ssh/id_ed25519_romeo.pub (ED25519) MD5:12:f8:7e:78:61:b4:bf:e2:de:24:15:96:4e:d4:72:53")
	f.Add(strings.Repeat("> - ", 9))
	f.Fuzz(checkScanners)
}
