package acces

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/checklist"
	"github.com/romeo-pret/pret/templates"
)

// TestOnlineTextCorpus holds the reading of Moodle online texts (testdata/texte-en-ligne,
// as Moodle's editor writes them) to the verdicts of verdicts.tsv, with signatures
// required: an online text is never unsigned.
func TestOnlineTextCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "texte-en-ligne")
	tsv, err := os.ReadFile(filepath.Join(dir, "verdicts.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	rl := rules
	rl.OnlineText, rl.RequireSignature = true, true
	for _, row := range strings.Split(strings.TrimSpace(string(tsv)), "\n")[1:] {
		f := strings.Split(row, "\t")
		name, verdict, want, why := f[0], f[1], f[2], f[3]
		t.Run(strings.TrimSuffix(name, ".html"), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			r := Validate(data, rl)
			if got := strings.Join(errorCodes(r), ","); got != want || r.Valid() != (verdict == "valid") {
				t.Errorf("errors %q, want %s %q (%s)\n%+v", got, verdict, want, why, r.Problems)
			}
		})
	}
}

func errorCodes(r *Result) []string {
	var errs []string
	for _, p := range r.Problems {
		if p.Severity == checklist.SevError {
			errs = append(errs, string(p.Code))
		}
	}
	return errs
}

// TestOnlineTextBlocks: lines as the author typed them, hidden parts left out.
func TestOnlineTextBlocks(t *testing.T) {
	page := `<p dir="ltr" style="text-align: left;">Date&nbsp;:  16/10/2026<br>Cl&eacute; :
<code>C:\Users\Jean Dupont\.ssh\k.pub</code></p><p hidden>x</p><pre>a  b
c</pre><template>y</template><p>**z**</p><p><svg width="16" height="16"/>w</p>`
	var got []string
	readOnlineText(page, func(b *block) {
		s := b.text
		for _, c := range b.codes {
			s += "|code:" + b.text[c[0]:c[1]]
		}
		got = append(got, strings.TrimSpace(s))
	})
	want := []string{"Date : 16/10/2026", `Clé : C:\Users\Jean Dupont\.ssh\k.pub|code:C:\Users\Jean Dupont\.ssh\k.pub`, "a  b", "c", "**z**", "w"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("blocks %q, want %q", got, want)
	}
}

// TestOnlineTextLinear: the HTML reader's cost is the page's size, whatever its shape.
func TestOnlineTextLinear(t *testing.T) {
	rl := Rules{OnlineText: true}
	for _, tok := range []string{"<p>a</p>", "<br>", "<div hidden><div>", "<pre>a\n", "<code>", "<td>a", "<tr><td>a</td>", "&nbsp;", "<!--", "<span style='display:none'>", "<svg>"} {
		cost := func(n int) uint64 {
			b, _ := costRules([]byte(strings.Repeat(tok, n/len(tok))), rl)
			return b
		}
		b1, b2 := cost(64<<10), cost(128<<10)
		if float64(b2) > 2.6*float64(b1)+64<<10 || b2 > 16<<20 {
			t.Errorf("%q: %d B at 64 KiB, %d B at 128 KiB", tok, b1, b2)
		}
	}
}

// TestOnlineTextBound: an online text's one bound is the file's, MaxAccessSize.
// Moodle's editor wraps every line in markup and text pasted from a word
// processor brings its styles, so a page past Markdown's 16 KiB is still read
// (the HTML reader is linear: TestOnlineTextLinear); past 1 MiB it is too-large.
func TestOnlineTextBound(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "texte-en-ligne", "01-atto-paragraphes.html"))
	if err != nil {
		t.Fatal(err)
	}
	rl := rules
	rl.OnlineText = true
	styles := `<p style="margin:0cm;font-family:Calibri,sans-serif;mso-fareast-language:FR"></p>` + "\n"
	big := append([]byte(strings.Repeat(styles, 64<<10/len(styles))), data...)
	if r := Validate(big, rl); !r.Valid() {
		t.Errorf("%d bytes of online text: %+v", len(big), r.Problems)
	}
	huge := append([]byte(strings.Repeat(styles, MaxAccessSize/len(styles)+1)), data...)
	if r := Validate(huge, rl); strings.Join(errorCodes(r), ",") != "too-large" {
		t.Errorf("%d bytes of online text: %+v", len(huge), r.Problems)
	}
	// A paragraph, a <pre> line or a table row over 16 KiB is not read,
	// as a Markdown line over 2 KiB: cut, its end once read as a
	// paragraph alone, the sentence after 16 KiB of words (outside
	// tester); read whole, 80 MiB of words.
	filler := strings.Repeat("mot ", 5000)
	for _, long := range []string{"<p>" + filler + templates.Sentence + "</p>", "<pre>" + filler + "</pre>", "<table><tr>" + strings.Repeat("<td>mot</td>", 5000) + "</tr></table>"} {
		page := append(bytes.Clone(data), long...)
		if r := Validate(page, rl); strings.Join(errorCodes(r), ",") != "too-large" || !strings.Contains(r.Problems[0].Message, "un paragraphe de plus de 16 Kio") {
			t.Errorf("%.30q…: %+v", long, r.Problems)
		}
	}
}

// TestOnlineTextPictures: a page that shows no text is no acces.md, and the
// pictures it shows are named by their file's name, once; a hidden one, or
// one with no file (a data: URL), is not named (outside tester, B3).
func TestOnlineTextPictures(t *testing.T) {
	for page, want := range map[string]string{
		`<p dir="ltr" style="text-align: left;"><img src="image.png" alt=""><br></p>`:             "image.png",
		`<p><img src="@@PLUGINFILE@@/photo%20cle.png?time=1"><img src="image.png"></p>`:           "photo cle.png,image.png",
		`<p><img src="a.png"></p><p>&nbsp;</p><div hidden><img src="b.png">x</div><!-- y -->`:     "a.png",
		`<p><img src="data:image/png;base64,iVBO/w=="><img src="c.png" style="display:none"></p>`: "",
		``: "",
		// What shows nothing is no text: a byte order mark, a zero-width
		// space, a soft hyphen, a word joiner (outside tester, stop 39).
		"\ufeff<p><img src=\"@@PLUGINFILE@@/image.png#x\"></p>": "image.png",
		"<p>&#8203;</p><p>&#xFEFF;&shy;&#x2060;</p>":            "",
	} {
		pictures, empty := OnlineTextPictures([]byte(page))
		if !empty || strings.Join(pictures, ",") != want {
			t.Errorf("%q: %q, empty %v; want %q", page, pictures, empty, want)
		}
	}
	for _, page := range []string{"<p>Date : 16/10/2026</p>", `<p><img src="a.png">.</p>`, "<pre>\u2003x</pre>"} {
		if _, empty := OnlineTextPictures([]byte(page)); empty {
			t.Errorf("%q shows text", page)
		}
	}
}
