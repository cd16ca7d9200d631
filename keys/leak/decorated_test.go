package leak

import (
	"encoding/base64"
	mrand "math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/romeo-pret/pret/internal/keytest"
)

// TestDecoratedBlocks: a key whose every line sits behind a comment mark
// or a line number, or is cut by HTML tags as a rich-text editor writes
// it, is reported whole when its opening line (BEGIN, a PuTTY or PEM
// header) is kept (outside tester, stop 27: the lines between were
// quoted; stop 40: lines cut by <span> were not seen).
func TestDecoratedBlocks(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(27, 1))
	prefix := func(p string) func(int, string) string { return func(_ int, l string) string { return p + l } }
	cut := func(open, close string) func(int, string) string {
		return func(_ int, l string) string {
			k := min(10, len(l))
			return open + l[:k] + close + `<span style="color:red">` + l[k:] + "</span></p>"
		}
	}
	decorations := []func(int, string) string{
		prefix("#"), prefix("# "), prefix(";"), prefix("; "), prefix("-- "), prefix("%"),
		func(n int, l string) string { return "  " + strconv.Itoa(n) + " | " + l },
		cut("<p><span>", "</span>"), cut("<b>", "</b>"), cut("", "<br/>"),
	}
	tested := 0
	for range 40 {
		for _, f := range keytest.Forms(t) {
			c := keytest.Embed(f, keytest.RandomMutation(rng), rng, nil, nil)
			block := c.Block()
			if !c.Opens() || markerWordLine(c) {
				continue // headless bodies, cut markers: TestMaterialLinesEveryMutation's ground
			}
			tested++
			for _, decorate := range decorations {
				lines := slices.Clone(keytest.AccesBefore[0])
				first := len(lines) + 1
				for i, l := range block {
					lines = append(lines, decorate(i+1, l))
				}
				last := len(lines)
				lines = append(lines, keytest.AccesAfter[0]...)
				text := strings.Join(lines, "\n") + "\n"
				got := Lines(text)
				for no := first; no <= last; no++ {
					if c.KeyText(no-first) && !slices.Contains(got, no) {
						t.Fatalf("%s: line %d %q not reported (got %v)\n%s", f.Name, no, lines[no-1], got, text)
					}
				}
				for _, g := range got {
					if g < first || g > last {
						t.Fatalf("%s: honest line %d %q reported\n%s", f.Name, g, lines[g-1], text)
					}
				}
			}
		}
	}
	t.Logf("%d blocks tried", tested)
	if tested < 200 {
		t.Fatalf("only %d blocks of 560 open on their first line: the property was hardly tried", tested)
	}
	// A label before a PuTTY private line, inside the block.
	ppk := "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: kim\nPublic-Lines: 2\n" +
		"AAAAC3NzaC1lZDI1NTE5AAAAIKIeR2w6\nc2l6ZTQxYWJjZGVmZ2hpamtsbW5vcA==\n" +
		"Date de la demande : AAAAII4fQ2hhbmdlZEJ5VGhlVGVzdGVyMTIzNA==\nPrivate-MAC: 0123456789abcdef\n"
	if got := Lines(ppk); !slices.Equal(got, []int{1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Fatalf("PuTTY block with a label: %v", got)
	}
	// Prose ending in a long word is no body line.
	if got := Lines("C'est Anticonstitutionnellement\n"); got != nil {
		t.Fatalf("prose reported: %v", got)
	}
}

// markerWordLine: a line of the body begins with END or BEGIN, in any
// case ("end" is base64 too, cut at width 3). Behind a comment mark it
// reads as half of a marker cut over two lines, which the detector
// cannot tell apart (a known limit, by how it reads markers: such lines
// undressed are TestMaterialLinesEveryMutation's).
func markerWordLine(c keytest.Case) bool {
	for _, l := range c.Plain {
		u := strings.ToUpper(strings.TrimSpace(l))
		if !strings.Contains(u, "-----") && (strings.HasPrefix(u, "END") || strings.HasPrefix(u, "BEGIN")) {
			return true
		}
	}
	return false
}

// base64Line: a line of base64 long enough to be no word (the test's
// own reading, not the detector's).
var base64Line = regexp.MustCompile(`^[A-Za-z0-9+/=]{24,}$`)

// TestHiddenByHTML: what a renderer hides inside a line (an HTML
// comment) or decodes (an entity) hides no key (outside tester, stop 27).
func TestHiddenByHTML(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(27, 2))
	hide := []func(string) string{
		func(l string) string { i := min(10, len(l)); return l[:i] + "<!---->" + l[i:] },
		func(l string) string { return strings.Replace(l, "A", "&#65;", 1) },
		func(l string) string { return strings.Replace(l, "E", "&#x45;", 1) },
	}
	tested := 0
	for range 20 {
		for _, f := range keytest.Forms(t) {
			c := keytest.Embed(f, keytest.RandomMutation(rng), rng, nil, nil)
			block := c.Block()
			if !c.Opens() || markerWordLine(c) {
				continue
			}
			tested++
			for _, h := range hide {
				var lines []string
				for _, l := range block {
					lines = append(lines, h(l))
				}
				got := Lines("Date :\n" + strings.Join(lines, "\n") + "\nfin\n")
				for i := range block {
					if c.KeyText(i) && !slices.Contains(got, i+2) {
						t.Fatalf("%s: line %q not reported (got %v)", f.Name, lines[i], got)
					}
				}
			}
		}
	}
	t.Logf("%d blocks tried", tested)
	if tested < 100 {
		t.Fatalf("only %d blocks of 280 tried", tested)
	}
}

// TestRedactCopies: a line of the key copied elsewhere (a job name, a
// label) is emptied too (outside tester, stop 27: pret livrables quoted
// one), and a fingerprint or honest base64 nearby is not.
func TestRedactCopies(t *testing.T) {
	copied, masked := 0, 0
	for _, f := range keytest.Forms(t) {
		c := keytest.Embed(f, keytest.RandomMutation(mrand.New(mrand.NewPCG(1, 2))), mrand.New(mrand.NewPCG(3, 4)), nil, nil)
		block := c.Block()
		var line string
		for _, l := range c.Plain {
			if base64Line.MatchString(l) {
				line = l
				break
			}
		}
		if line == "" {
			continue // one base64 line of 1 to 16 characters
		}
		copied++
		text := "#!/bin/bash\n#SBATCH --job-name=" + line + "\n" + strings.Join(block, "\n") +
			"\n# SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU\nhostname\n"
		red, lines := Redact(text)
		if strings.Contains(red, line) || !slices.Contains(lines, 2) {
			t.Fatalf("%s: the copy on line 2 is left (%v)\n%s", f.Name, lines, red)
		}
		if !strings.Contains(red, "SHA256:47DEQ") || !strings.Contains(red, "#!/bin/bash") {
			t.Fatalf("%s: honest lines emptied\n%s", f.Name, red)
		}
		// Mask, as the acces.md messages use it: a copy of a secret line
		// (no "AAAA" structure) goes, the rest stays.
		secret := ""
		for _, l := range c.Plain {
			if base64Line.MatchString(l) && !strings.Contains(l, "AAAA") {
				secret = l
			}
		}
		if secret == "" {
			continue
		}
		masked++
		pieces := PiecesOf(text, Lines(text))
		msg := "nom de tâche « " + secret + " », empreinte SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU"
		masked := pieces.Mask(msg)
		if masked != "nom de tâche « … », empreinte SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU" || pieces.Mask(masked) != masked {
			t.Fatalf("%s: Mask(%q) = %q", f.Name, msg, masked)
		}
		// Invisible characters between its pieces hide nothing (outside tester).
		var spaced strings.Builder
		for i, r := range secret {
			if i > 0 && i%4 == 0 {
				spaced.WriteString([]string{"\u200b", "\u3164", "\ufe0f"}[i/4%3])
			}
			spaced.WriteRune(r)
		}
		if got := pieces.Mask("chemin : " + spaced.String() + ".pub"); got != "chemin : ….pub" {
			t.Fatalf("%s: Mask with invisible characters: %q", f.Name, got)
		}
		if clean := "hostname\nsrun date"; pieces.Mask(clean) != clean {
			t.Fatalf("%s: Mask changed a text holding no piece", f.Name)
		}
	}
	t.Logf("%d copied, %d masked", copied, masked)
	if copied < 7 || masked < 5 {
		t.Fatalf("of %d forms, %d copied and %d masked", len(keytest.Forms(t)), copied, masked)
	}
}

// TestOneLineOfABlockDressed: with its BEGIN and END in place, a key
// keeps every line whatever one line or an inserted line carries (second
// outside tester, stop 27: a label on the seed line left it out).
func TestOneLineOfABlockDressed(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(27, 3))
	dress := []func(string) string{
		func(l string) string { return "Date de la demande : " + l },
		func(l string) string { return l[:len(l)/2] + "\u200b" + l[len(l)/2:] },
		func(l string) string { return "**" + l + "**" },
		func(l string) string { return "<span></span>" + l },
		func(l string) string { return l[:len(l)/2] + "&shy;" + l[len(l)/2:] },
		func(l string) string { return `x="` + l + `"` },
		func(l string) string { return "#SBATCH --output=" + l },
		func(l string) string { return "16: " + l },
		func(l string) string { return l + `\` },
		func(l string) string { return l + "<br>" },
		func(l string) string { return l[:len(l)/2] + "<!--\n-->" + l[len(l)/2:] },
		func(l string) string { return l + "\n[//]: # (x)" },
	}
	tested := 0
	for range 20 {
		for _, f := range keytest.Forms(t) {
			c := keytest.Embed(f, keytest.RandomMutation(rng), rng, nil, nil)
			block := c.Block()
			// 400 lines at most from BEGIN to END (docs/securite.md).
			if !c.Opens() || !c.Closes() || markerWordLine(c) || len(block) < 4 || len(block) > 400 {
				continue
			}
			for _, d := range dress {
				i := 1 + rng.IntN(len(block)-2)
				if !c.KeyText(i) {
					continue
				}
				tested++
				lines := slices.Clone(block)
				lines[i] = d(lines[i])
				text := "Date :\n" + strings.Join(lines, "\n") + "\nfin\n"
				got := Lines(text)
				n := strings.Count(text, "\n")
				if want := n - 2; len(got) != want || got[0] != 2 {
					t.Fatalf("%s: %d lines reported of %d (%v)\n%s", f.Name, len(got), want, got, text)
				}
			}
		}
	}
	t.Logf("%d dressed lines tried", tested)
	if tested < 500 {
		t.Fatalf("only %d dressed lines tried", tested)
	}
}

// TestKeyFileEncodedWhole: a key file base64-encoded on one line, as
// kubeconfig's client-key-data holds it, is a key (third outside tester,
// stop 27); a certificate encoded the same way is not.
func TestKeyFileEncodedWhole(t *testing.T) {
	rng, tried := mrand.New(mrand.NewPCG(5, 6)), 0
	for i := 0; i < 4000 && tried < 40; i++ {
		f := keytest.Forms(t)[i%len(keytest.Forms(t))]
		c := keytest.Embed(f, keytest.RandomMutation(rng), rng, nil, nil)
		block := c.Block()
		if !strings.HasPrefix(block[0], "-----BEGIN") || !c.Opens() || !c.Closes() || markerWordLine(c) {
			continue
		}
		// Whatever comes before it, at any offset (outside tester: a blank
		// line first, cat k.pub k | base64).
		before := []string{"", "\n", "\t\n", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5 kim\n"}[tried%4]
		enc := base64.StdEncoding.EncodeToString([]byte(before + strings.Join(block, "\n") + "\n"))
		text := "users:\n- name: kim\n  user:\n    client-key-data: " + enc + "\n"
		if got := Lines(text); !slices.Equal(got, []int{4}) {
			t.Fatalf("%s after %q: %v\n%s", f.Name, before, got, text)
		}
		// Wrapped as base64 -w N writes it, N under what one line needs
		// (outside tester: 16 to 39 went unseen), or cut by a hard break:
		// every line is the key's.
		width := 4 + rng.IntN(60)
		var wrapped []string
		for s := enc; s != ""; s = s[min(width, len(s)):] {
			wrapped = append(wrapped, s[:min(width, len(s))])
		}
		sep := []string{"\n", "\\\n", "  \n"}[rng.IntN(3)]
		text = strings.Join(wrapped, sep) + "\nMerci.\n" // from the first line (base64 -w N k > f)
		// The lines that only encode what came before need not be reported.
		lead := 0
		if before != "" {
			lead = len(base64.StdEncoding.EncodeToString([]byte(before)))/width + 1
		}
		if got := Lines(text); len(got) < len(wrapped)-lead || len(got) > len(wrapped) || got[len(got)-1] != len(wrapped) {
			t.Fatalf("%s, lines of %d with %q: %v of %d lines\n%s", f.Name, width, sep, got, len(wrapped), text)
		}
		tried++
	}
	if tried < 10 {
		t.Fatalf("only %d keys tried", tried)
	}
	cert := base64.StdEncoding.EncodeToString([]byte("-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUW\n-----END CERTIFICATE-----\n"))
	if got := Lines("    client-certificate-data: " + cert + "\n"); got != nil {
		t.Fatalf("certificate: %v", got)
	}
	if got := Lines(cert[:10] + "\n" + cert[10:20] + "\n" + cert[20:] + "\n"); got != nil {
		t.Fatalf("certificate wrapped: %v", got)
	}
}

// TestKeyInsideComments: a key whose lines sit inside HTML comments is
// hidden from the rendered page but sent all the same: each line is
// reported (outside tester, stop 28: "<!-- line -->" went unseen), and a
// sentence naming the format's magic is not a key.
func TestKeyInsideComments(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(28, 1))
	hide := []func(string) string{
		func(l string) string { return "<!-- " + l + " -->" },
		func(l string) string { return "<!--" + l + "-->" },
	}
	tested := 0
	for range 20 {
		for _, f := range keytest.Forms(t) {
			c := keytest.Embed(f, keytest.RandomMutation(rng), rng, nil, nil)
			block := c.Block()
			if !c.Opens() || markerWordLine(c) {
				continue
			}
			tested++
			for k, h := range hide {
				var lines []string
				for i, l := range block {
					if c.KeyText(i) {
						l = h(l)
					}
					lines = append(lines, l)
				}
				got := Lines("Date :\n" + strings.Join(lines, "\n") + "\n<!-- pret:signature -->\nMerci, à bientôt.\n")
				for i := range block {
					if c.KeyText(i) && !slices.Contains(got, i+2) {
						t.Fatalf("%s, hidden %d: line %q not reported (got %v)", f.Name, k, lines[i], got)
					}
				}
				if slices.Contains(got, 1) || slices.Contains(got, len(block)+3) || slices.Contains(got, len(block)+2) {
					t.Fatalf("%s, hidden %d: an honest line reported (got %v)\n%s", f.Name, k, got, strings.Join(lines, "\n"))
				}
			}
		}
	}
	t.Logf("%d blocks tried", tested)
	if tested < 100 {
		t.Fatalf("only %d blocks of 280 tried", tested)
	}
	for _, f := range keytest.Forms(t) {
		if f.Name != "ed25519/openssh" {
			continue
		}
		c := keytest.Embed(f, keytest.RandomMutation(rng), rng, nil, nil)
		var body []string
		for _, l := range c.Plain {
			if l != "" && !strings.ContainsAny(l, "-: \t\u00a0") {
				body = append(body, l)
			}
		}
		if len(body) == 0 {
			t.Fatal("no body line in the ed25519 key")
		}
		for _, text := range []string{"<!-- " + strings.Join(body, "") + " -->", "Texte <!-- " + strings.Join(body, "") + " --> fin",
			"<!-- -----BEGIN OPENSSH PRIVATE KEY----- -->"} {
			if got := Lines("Date :\n" + text + "\nMerci, à bientôt.\n"); !slices.Equal(got, []int{2}) {
				t.Errorf("%.60q: got %v, want [2]", text, got)
			}
		}
	}
	if got := Lines("Une clé privée commence par b3BlbnNzaC1rZXktdjE en base64.\n"); got != nil {
		t.Errorf("a sentence naming the magic reported: %v", got)
	}
}

// TestBodyAfterAComment: a body without its BEGIN whose first lines are
// in comments is reported whole, and a PuTTY key behind labels or cells
// is a key (second outside tester, stop 28).
func TestBodyAfterAComment(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(28, 2))
	tested := 0
	for range 10 {
		for _, f := range keytest.Forms(t) {
			c := keytest.Embed(f, keytest.RandomMutation(rng), rng, nil, nil)
			putty := strings.HasPrefix(f.Name, "putty")
			var body []string
			for _, l := range c.Plain {
				// PEM: every line but the markers ("-----").
				if l != "" && (putty || !strings.Contains(l, "-----")) {
					body = append(body, l)
				}
			}
			// Re-spaced, only a marker says where a body is (keytest.Mutation).
			if len(body) < 3 || !c.Opens() || markerWordLine(c) || slices.ContainsFunc(body, func(l string) bool { return strings.ContainsFunc(l, unicode.IsSpace) }) && !putty {
				continue
			}
			tested++
			shapes := map[string]func(i int, l string) string{
				"first in a comment": func(i int, l string) string {
					if i == 0 {
						return "<!-- " + l + " -->"
					}
					return l
				},
				"every other in a comment": func(i int, l string) string {
					if i%2 == 0 {
						return "<!-- " + l + " -->"
					}
					return l
				},
			}
			if strings.HasPrefix(f.Name, "putty") {
				shapes = map[string]func(int, string) string{
					"label":  func(_ int, l string) string { return "Clé : " + l },
					"cell":   func(_ int, l string) string { return "| x | " + l + " |" },
					"prose":  func(_ int, l string) string { return "texte : " + l },
					"hidden": func(_ int, l string) string { return "Clé : <!-- " + l + " -->" },
				}
			}
			for name, shape := range shapes {
				var lines []string
				for i, l := range body {
					lines = append(lines, shape(i, l))
				}
				got := Lines("Date :\n" + strings.Join(lines, "\n") + "\nMerci, à bientôt.\n")
				for i := range lines {
					// A short public tail behind a label ("Clé : g2/1") reads as prose.
					if !slices.Contains(got, i+2) && (len(body[i]) >= 16 || !strings.HasPrefix(f.Name, "putty")) {
						t.Fatalf("%s, %s: line %q not reported (got %v)\n%s", f.Name, name, lines[i], got, strings.Join(lines, "\n"))
					}
				}
				if slices.Contains(got, 1) || slices.Contains(got, len(lines)+2) {
					t.Fatalf("%s, %s: an honest line reported (got %v)", f.Name, name, got)
				}
			}
		}
	}
	t.Logf("%d bodies tried", tested)
	if tested < 30 {
		t.Fatalf("only %d bodies of 140 tried", tested)
	}
	if got := Lines("Le fichier commence par PuTTY-User-Key-File-3: ssh-ed25519\n"); !slices.Equal(got, []int{1}) {
		t.Errorf("a PuTTY header in prose: got %v, want [1]", got)
	}
}

// TestTagsHideNothing: every line of a page cut by HTML tags (a rich-text
// editor's <span>, <b>, <p>), by what they hide, by Markdown emphasis or a
// code span is read as the line itself, headless bodies and cut markers included: the same
// lines are reported.
func TestTagsHideNothing(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(40, 1))
	cuts := [][2]string{{`</span><b>`, "</b></p>"}, {"**", "**"}, {"`", "`"}, {"<b></b>", "*"},
		// What a browser does not show (outside tester, stop 40).
		{"<span hidden>ZZZZ</span>", `<SCRIPT type="x">1</script>`}, {`<span style="display: none">QQ</span>`, "<style>p{}</style>"},
		{`</span><span title="a>b">`, "<template>AAAA</template>"}, {"<![CDATA[x]]>", "<?x?>"},
		{"<span hidden>a<span>b</span>c</span>", "<div hidden>a<div>b</div>c</div>"}, {"</ x>", "</1>"},
		{"<!-->", "<!--->"}, {"<title>x</title>", "<noscript>AAAA</noscript>"},
		// What internal/htmlshown hides, read from the tag by the HTML tokenizer.
		{"<video controls>QQQQ</video>", `<details class="x">ZZ</details>`}, {`<i style='visibility : hidden'>AB</i>`, "<noembed>CC</noembed>"},
		{`<span style="display&#58;none">QQ</span>`, `<b style=&#x76;isibility:hidden>ZZ</b>`},
		// A picture's own text goes, not what an HTML tag ends it to show (HTML 13.2.6.5).
		{`<svg><desc>A<b>B</b>C</desc>D</svg>`, `<svg>QQ<b></b></svg>`}, {`<span style="display:none;display:none">QQ</span>`, `<svg/>`},
		{"<svg><b>", "</b></svg>"}, {`<i hidden style="display:inline">`, `</i><svg><p>`},
		// A name with a hyphen is read whole, as its end tag is.
		{"<x-a hidden>QQ</x-a>", "<math><annotation-xml>ZZ</annotation-xml></math>"}}
	tried, reported := 0, 0
	for range 40 {
		for _, f := range keytest.Forms(t) {
			c := keytest.Embed(f, keytest.RandomMutation(rng), rng, keytest.AccesBefore[0], keytest.AccesAfter[0])
			tagged := slices.Clone(c.Lines)
			cut := cuts[tried%len(cuts)]
			for i, l := range tagged {
				k := rng.IntN(len(l) + 1)
				tagged[i] = `<p><span lang="fr">` + l[:k] + cut[0] + l[k:] + cut[1]
			}
			want := Lines(strings.Join(c.Lines, "\n") + "\n")
			if got := Lines(strings.Join(tagged, "\n") + "\n"); !slices.Equal(got, want) {
				t.Fatalf("%s: lines %v cut by tags, %v plain\n%s", f.Name, got, want, strings.Join(tagged, "\n"))
			}
			tried++
			reported += min(len(want), 1)
		}
	}
	if reported < tried*9/10 {
		t.Fatalf("only %d keys of %d reported plain: the property was hardly tried", reported, tried)
	}
}
