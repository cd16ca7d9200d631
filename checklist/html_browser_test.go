package checklist

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

const chromiumPath = "/usr/bin/chromium"

const evil = `<img src=x onerror=alert(1)>`

// A name too long for a phone's width, in one word as Moodle makes it.
const longName = "Marie-Thérèse Dupont-Aignan de La Rochefoucauld"

// A name with neither space nor hyphen to break at (outside tester: the
// incident box and the shared-fingerprint list scrolled sideways).
const unbrokenName = "MarieThérèseDupontAignanDeLaRochefoucauldMontmorency"

var browserFiles = []FileResult{
	{Path: "rendus/zoe\u202e/acces.md", Apprenant: "zoé", Valid: true, Signed: true, Fingerprint: "SHA256:aaa", Date: "2026-10-16", Statut: "verifie"},
	{Path: "rendus/" + evil + "/acces.md", Apprenant: evil, Problems: []Problem{
		{Code: "missing-date", Severity: SevError, Message: "date absente " + evil},
		{Code: "bad-date", Severity: SevError, Message: evil, Line: 2},
	}},
	{Path: "rendus/bob/acces.md", Apprenant: "bob", Fingerprint: fpA, Problems: []Problem{
		{Code: "missing-date", Severity: SevError, Message: "date absente"},
		{Code: "duplicate-fingerprint", Severity: SevError, Message: "même clé que chloé", Line: 3},
	}},
	{Path: "rendus/alice/acces.md", Apprenant: "alice", Valid: true, Problems: []Problem{{Code: "late-request", Severity: SevWarning, Message: "tard", Line: 1}}},
	{Path: "rendus/chloe/acces.md", Apprenant: "chloé", Fingerprint: fpA, Problems: []Problem{
		{Code: "missing-sentence", Severity: SevError, Message: "phrase"},
		{Code: "duplicate-fingerprint", Severity: SevError, Message: "même clé que bob", Line: 3},
	}},
	{Path: "rendus/yann/acces.md", Apprenant: "yann", Email: "yann@exemple.fr", Problems: []Problem{{Code: "private-key-leak", Severity: SevError, Message: "clé privée (ligne 4)", Line: 4}}},
	{Path: "rendus/" + longName + "_4242_assignsubmission_file_/acces.md", Apprenant: longName, Participant: "4242", Valid: true, Signed: true,
		Fingerprint: "SHA256:Zm9vYmFyYmF6cXV4cXV1eHh5enp5eHd2dXRzcnFwb25t", Date: "2026-10-16"},
}

// browserPage is the report open in Chromium; every check shares it,
// so the browser starts once.
type browserPage struct {
	ctx context.Context
	url string
}

func (p browserPage) eval(t *testing.T, expr string) any {
	t.Helper()
	return evalAs[any](t, p, expr)
}

// evalAs is expr's value in the page, as T.
func evalAs[T any](t *testing.T, p browserPage, expr string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func (p browserPage) do(t *testing.T, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(p.ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

func (p browserPage) open(t *testing.T) {
	t.Helper()
	p.do(t, chromedp.Navigate(p.url), chromedp.WaitReady(chromedp.CSS("#files")))
}

// visible gives the whole path of every row shown.
func (p browserPage) visible(t *testing.T) []string {
	t.Helper()
	return evalAs[[]string](t, p, `Array.from(document.querySelectorAll("#files tbody tr")).filter(r => !r.hidden).map(r => r.cells[1].dataset.sort)`)
}

// TestHTMLReportInChromium opens the report in a real headless Chromium
// from a file:// URL: rows and counts, a code filter, a sort, no request
// anywhere, a hostile file name and content that stay text, axe-core's
// accessibility rules, and a phone's width.
func TestHTMLReportInChromium(t *testing.T) {
	needChromium(t)
	dir := t.TempDir()
	p := browserPage{ctx: startChromium(t, dir), url: writeBrowserReport(t, dir)}
	requests, dialogs := watchPage(t, p.ctx)
	if _, err := chromedp.Call(p.ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	p.open(t)

	t.Run("content", func(t *testing.T) { checkContent(t, p) })
	t.Run("full values", func(t *testing.T) { checkFullValues(t, p) })
	t.Run("copy", func(t *testing.T) { checkCopy(t, p) })
	t.Run("filters", func(t *testing.T) { checkFilters(t, p) })
	t.Run("axe", func(t *testing.T) { checkAxe(t, p) })
	t.Run("narrow", func(t *testing.T) { checkNarrow(t, p) })
	t.Run("scripts off", func(t *testing.T) { checkScriptsOff(t, p) })

	// The page's own loads are seen, so the watch is not blind.
	got, n := requests(), dialogs()
	if len(got) == 0 {
		t.Error("no network event seen at all: the no-request check would prove nothing")
	}
	for _, r := range got {
		if r != p.url {
			t.Errorf("the page made a request: %s", r)
		}
	}
	if n != 0 {
		t.Errorf("%d dialogs opened", n)
	}
}

// needChromium skips under -short and Wine, and fails on CI without Chromium.
func needChromium(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("Chromium démarre en quelques secondes : sans -short")
	}
	if os.Getenv("PRET_WINE") == "1" {
		t.Skip("sous Wine, pas de Chromium Windows : le HTML est vérifié dans Chromium par les tests Linux")
	}
	if _, err := exec.LookPath(chromiumPath); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("chromium is needed on CI (.ci/test installs it): %v", err)
		}
		t.Skip("chromium absent; .ci/test installs it")
	}
}

func writeBrowserReport(t *testing.T, dir string) string {
	t.Helper()
	report := filepath.Join(dir, "rapport.html")
	out, err := os.Create(report)
	if err != nil {
		t.Fatal(err)
	}
	generated := time.Date(2026, 12, 1, 19, 5, 0, 0, time.Local)
	if err := WriteFilesReport(out, "html", FilesReport{Name: "pret valider", Files: browserFiles, Sources: []string{"rendus.zip"}, Generated: generated}); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return (&url.URL{Scheme: "file", Path: report}).String()
}

func startChromium(t *testing.T, dir string) context.Context {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox, // tests run as root
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.UserDataDir(filepath.Join(dir, "profil")),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelA)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelT)
	return ctx
}

// watchPage records every request the page makes and refuses every
// dialog it opens.
func watchPage(t *testing.T, ctx context.Context) (requests func() []string, dialogs func() int) {
	var mu sync.Mutex
	var urls []string
	n := 0
	if err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			urls = append(urls, e.Request.URL)
		case *page.EventJavascriptDialogOpening:
			n++
			go chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	}); err != nil {
		t.Fatal(err)
	}
	return func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), urls...) },
		func() int { mu.Lock(); defer mu.Unlock(); return n }
}

func checkContent(t *testing.T, p browserPage) {
	rows := p.eval(t, `document.querySelectorAll("#files tbody tr").length`)
	nFiles := p.eval(t, `document.getElementById("n-files").textContent`)
	nInvalid := p.eval(t, `document.getElementById("n-invalid").textContent`)
	if rows != float64(len(browserFiles)) || nFiles != "7" || nInvalid != "4" {
		t.Errorf("rows %v, files %q, invalid %q", rows, nFiles, nInvalid)
	}
	imgs := p.eval(t, `document.querySelectorAll("img").length`)
	scripts := p.eval(t, `document.scripts.length`)
	evilCell := p.eval(t, `Array.from(document.querySelectorAll("#files tbody tr")).map(r => r.cells[0].textContent).filter(t => t.includes("onerror"))[0] || ""`)
	if imgs != float64(0) || scripts != float64(1) || evilCell != evil {
		t.Errorf("the hostile name became markup: %v img, %v scripts, cell %q", imgs, scripts, evilCell)
	}
	if got := p.visible(t); len(got) != len(browserFiles) {
		t.Errorf("scripts on, nothing filtered yet: %v", got)
	}
	// Landmarks and table semantics: everything in <main>, a caption, the
	// learner as the row's header.
	structure := p.eval(t, `[document.querySelectorAll("main").length, document.querySelector("main").contains(document.getElementById("files")),
		document.querySelector("#files caption") !== null, Array.from(document.querySelectorAll("#files tbody tr")).every(r => r.cells[0].tagName === "TH" && r.cells[0].scope === "row")].join("|")`)
	if structure != "1|true|true|true" {
		t.Errorf("main, caption, row headers: %q", structure)
	}
	// A bidi control in a name is shown as a marker, not applied: the
	// cell's text holds the code point and no control, and the marker is
	// drawn.
	zoe := p.eval(t, `document.querySelector("#files tbody tr.valide").cells[1].textContent`)
	marker := p.eval(t, `(function () { var m = document.querySelector("#files tbody tr.valide td span.bidi"); var s = getComputedStyle(m); return m.textContent + "|" + s.display + "|" + s.borderTopStyle + "|" + (m.getBoundingClientRect().width > 0); })()`)
	if zoe != "rendus/zoeU+202E/acces.md" || marker != "U+202E|inline|solid|true" {
		t.Errorf("bidi control: cell %q, marker %q", zoe, marker)
	}
	if got := p.eval(t, `document.querySelector("#files tbody tr.valide").textContent`).(string); !strings.Contains(got, "(vérifié)") || !strings.Contains(got, "oui") {
		t.Errorf("zoé's row: %q", got)
	}
	// The archive's name and the date of generation at the top.
	if meta := p.eval(t, `document.getElementById("meta").textContent`); meta != "Rendus lus : rendus.zip · généré le 1 décembre 2026 à 19:05" {
		t.Errorf("meta %q", meta)
	}
	// The leak first, as an incident, above the summary and in the table.
	incident := p.eval(t, `(function () { var s = document.getElementById("incidents"); var first = document.querySelector("#files tbody tr"); return [s.compareDocumentPosition(document.getElementById("resume")) === Node.DOCUMENT_POSITION_FOLLOWING, s.textContent, first.classList.contains("incident"), first.cells[0].textContent, first.cells[6].textContent].join("|"); })()`).(string)
	if parts := strings.Split(incident, "|"); len(parts) != 5 || parts[0] != "true" || !strings.Contains(parts[1], leakIncident) || !strings.Contains(parts[1], "yann (yann@exemple.fr, rendus/yann/acces.md)") ||
		parts[2] != "true" || parts[3] != "yannyann@exemple.fr" || !strings.Contains(parts[4], "Incident : "+leakIncident) {
		t.Errorf("incident: %q", incident)
	}
	// Duplicate groups by learner names, each with its path as text.
	if dups := p.eval(t, `Array.from(document.querySelectorAll("#duplicates > li")).map(l => l.textContent).join("/")`); dups != "bob (rendus/bob/acces.md), chloé (rendus/chloe/acces.md)" {
		t.Errorf("duplicates %q", dups)
	}
}

// checkFullValues: a long path or fingerprint is shown short, on one
// line; the whole value is in the page's text, behind a summary that a
// keyboard opens (a finger: checkNarrow), never only in a tooltip.
func checkFullValues(t *testing.T, p browserPage) {
	evilPath := "rendus/" + evil + "/acces.md"
	compact := p.eval(t, `(function () { var r = Array.from(document.querySelectorAll("#files tbody tr")).find(r => r.cells[0].textContent.includes("onerror")); var b = Array.from(document.querySelectorAll("#files tbody tr")).find(r => r.cells[0].textContent === "bob"); var p = r.cells[1].querySelector("details"), f = b.cells[5].querySelector("details"); return [p.querySelector("summary").textContent, p.querySelector(".whole").textContent, f.querySelector("summary").textContent, f.querySelector(".whole").textContent, getComputedStyle(r.cells[1]).whiteSpace].join("|"); })()`)
	if want := strings.Join([]string{"rendus/…/acces.md", evilPath, fpA[:15] + "…", fpA, "nowrap"}, "|"); compact != want {
		t.Errorf("compact cells %q, want %q", compact, want)
	}
	if titled := p.eval(t, `Array.from(document.querySelectorAll("body [title]")).filter(e => !e.classList.contains("bidi")).map(e => e.outerHTML).join("\n")`); titled != "" {
		t.Errorf("a value only in a tooltip:\n%s", titled)
	}
	// Every path and fingerprint of the table, read as a person can: in
	// the text of a focusable summary's details, or shown whole.
	hidden := p.eval(t, `Array.from(document.querySelectorAll("#files tbody td[data-sort]")).filter(c => c.cellIndex === 1 || c.cellIndex === 5).filter(c => {
		var want = c.dataset.sort.replace(/\[(U\+[0-9A-F]+)\]/g, "$1"), d = c.querySelector("details");
		if (!d) { return c.innerText !== want; }
		return d.querySelector(".whole").textContent !== want || d.querySelector("summary").tabIndex < 0;
	}).map(c => c.dataset.sort).join("\n")`)
	if hidden != "" {
		t.Errorf("values not readable by keyboard or touch:\n%s", hidden)
	}
	// By keyboard: Tab reaches the summary, Enter opens it.
	bob := `Array.from(document.querySelectorAll("#files tbody tr")).find(r => r.cells[0].textContent === "bob").cells[5]`
	p.do(t, chromedp.Focus(chromedp.JSPath(bob+`.querySelector("summary")`)), chromedp.KeyEvent("\r"))
	if got := p.eval(t, `(function () { var w = `+bob+`.querySelector(".whole"); return w.closest("details").open + "|" + w.innerText + "|" + (w.getBoundingClientRect().width > 0); })()`); got != "true|"+fpA+"|true" {
		t.Errorf("Enter on a fingerprint's summary: %q", got)
	}
}

// checkCopy: a copy of a short value, or of a whole row, gives the whole
// value, once, opened or not.
func checkCopy(t *testing.T, p browserPage) {
	copied := func(selectJS string) string {
		return evalAs[string](t, p, `(function () { var sel = window.getSelection(); sel.removeAllRanges(); var range = document.createRange(); `+selectJS+` sel.addRange(range);
			var dt = new DataTransfer(); document.dispatchEvent(new ClipboardEvent("copy", {clipboardData: dt, bubbles: true, cancelable: true})); return dt.getData("text/plain"); })()`)
	}
	bob := `Array.from(document.querySelectorAll("#files tbody tr")).find(r => r.cells[0].textContent === "bob")`
	if got := copied(`range.selectNodeContents(` + bob + `.cells[5].querySelector("summary code").firstChild);`); got != fpA {
		t.Errorf("copy of a short fingerprint: %q", got)
	}
	for _, open := range []bool{true, false} {
		p.eval(t, bob+`.cells[5].querySelector("details").open = `+map[bool]string{true: "true", false: "false"}[open])
		if got := copied(`range.selectNode(` + bob + `);`); strings.Count(got, fpA) != 1 || !strings.Contains(got, "rendus/bob/acces.md") {
			t.Errorf("copy of a row, details open %v: %q", open, got)
		}
	}
}

func checkFilters(t *testing.T, p browserPage) {
	// The search finds a whole fingerprint, though it is shown short.
	p.do(t, chromedp.SetValue(chromedp.CSS("#f-search"), fpA))
	p.eval(t, `document.getElementById("f-search").dispatchEvent(new Event("input"))`)
	if got := p.visible(t); strings.Join(got, "|") != "rendus/bob/acces.md|rendus/chloe/acces.md" {
		t.Errorf("search on a whole fingerprint: %q", got)
	}
	p.eval(t, `document.getElementById("f-reset").click()`)

	// A code filter, from the bar of the summary.
	p.do(t, chromedp.Click(chromedp.CSS(`button.code-filter[data-code="missing-date"]`)))
	want := []string{"rendus/" + evil + "/acces.md", "rendus/bob/acces.md"}
	if got := p.visible(t); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("filtered on missing-date: %q, want %q", got, want)
	}
	// Sort by learner, then again for the other way round.
	learners := func() []string {
		return evalAs[[]string](t, p, `Array.from(document.querySelectorAll("#files tbody tr")).filter(r => !r.hidden).map(r => r.cells[0].textContent)`)
	}
	p.do(t,
		chromedp.Click(chromedp.CSS(`button.code-filter[data-code="missing-date"]`)), // off again
		chromedp.Click(chromedp.CSS(`#files thead th:nth-child(1) button`)),
	)
	wantOrder := []string{evil, "alice", "bob", "chloé", longName + " n° 4242", "yannyann@exemple.fr", "zoé"}
	if got := learners(); strings.Join(got, "|") != strings.Join(wantOrder, "|") {
		t.Errorf("sorted by learner: %q, want %q", got, wantOrder)
	}
	p.do(t, chromedp.Click(chromedp.CSS(`#files thead th:nth-child(1) button`)))
	if got := learners(); got[0] != "zoé" || got[len(got)-1] != evil {
		t.Errorf("sorted the other way: %q", got)
	}
	// The verdict filter.
	p.do(t, chromedp.SetValue(chromedp.CSS("#f-verdict"), "avertissement"))
	p.eval(t, `document.getElementById("f-verdict").dispatchEvent(new Event("change"))`)
	if got := p.visible(t); len(got) != 1 || got[0] != "rendus/alice/acces.md" {
		t.Errorf("verdict filter: %q", got)
	}
	p.eval(t, `document.getElementById("f-reset").click()`)
}

// axeScript finds axe-core, which .ci/install puts in the CI cache (or
// PRET_AXE names): CI fails without it, a developer's run says why it
// skips.
func axeScript(t *testing.T) string {
	t.Helper()
	path := os.Getenv("PRET_AXE")
	if path == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Fatal(err)
		}
		path = filepath.Join(cache, "pret-ci", "axe-core", "node_modules", "axe-core", "axe.min.js")
	}
	b, err := os.ReadFile(path)
	if err != nil && os.Getenv("CI") != "" {
		t.Fatalf("axe-core is needed on CI (.ci/install puts it in %s): %v", path, err)
	} else if err != nil {
		t.Skipf("axe-core absent (%v) : .ci/install l'installe, ou PRET_AXE nomme axe.min.js", err)
	}
	return string(b)
}

// axeTags: WCAG 2.2 A and AA (with what 2.0 and 2.1 hold), and axe's
// best practices.
const axeTags = `["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]`

// runAxe injects axe-core once and fails on every violation, each named
// with its nodes.
func runAxe(t *testing.T, p browserPage, script, when string) {
	t.Helper()
	if p.eval(t, `typeof axe`) != "object" {
		p.eval(t, script+"\n;0")
	}
	out := evalAs[string](t, p, `axe.run(document, {runOnly: {type: "tag", values: `+axeTags+`}, resultTypes: ["violations"]}).then(r => JSON.stringify({version: axe.version, rules: r.passes.length + r.violations.length + r.incomplete.length,
		violations: r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(" ") + " : " + n.failureSummary)}))}))`, chromedp.EvalAwaitPromise)
	var res struct {
		Version    string
		Rules      int
		Violations []struct {
			ID, Impact, Help string
			Nodes            []string
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Rules == 0 {
		t.Fatalf("axe-core %s ran no rule %s: the check would prove nothing", res.Version, when)
	}
	for _, v := range res.Violations {
		t.Errorf("axe-core %s, %s: %s (%s) %s\n\t%s", res.Version, when, v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n\t"))
	}
}

// checkAxe runs axe-core on the page with every shortened value opened,
// so that their text is checked too.
func checkAxe(t *testing.T, p browserPage) {
	script := axeScript(t)
	p.eval(t, `document.querySelectorAll("details").forEach(d => d.open = true)`)
	runAxe(t, p, script, "every value opened")
	p.eval(t, `document.querySelectorAll("details").forEach(d => d.open = false)`)
}

// checkNarrow: on a phone (320 and 400 px) and at 200 % zoom (640 px, two
// device pixels each), the page never scrolls sideways, even with a name
// that has nowhere to break in the incident box and the shared-fingerprint
// list; only the table's own box does, and a finger opens a shortened path.
func checkNarrow(t *testing.T, p browserPage) {
	defer p.do(t, chromedp.EmulateReset())
	// The learner's name and e-mail in the two lists outside the table, as
	// the page writes them (span.who, span.email), put back after.
	names := `Array.from(document.querySelectorAll("#incidents span.who, #incidents span.email, #duplicates span.who"))`
	was := p.eval(t, names+`.map(s => { var was = s.textContent; s.textContent = "`+unbrokenName+`"; return was; }).join("|")`)
	defer p.eval(t, `(function (was) { `+names+`.forEach((s, i) => s.textContent = was[i]); })(`+strconv.Quote(fmt.Sprint(was))+`.split("|"))`)
	if n := p.eval(t, names+`.filter(s => s.textContent === "`+unbrokenName+`").length`); n != float64(4) {
		t.Fatalf("%v names and e-mails without a break put in the incident box and the shared-fingerprint list, want 4", n)
	}
	for _, c := range []struct {
		name  string
		width int64
		opts  []chromedp.EmulateViewportOption
	}{
		{"320 px", 320, []chromedp.EmulateViewportOption{chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait}},
		{"400 px", 400, []chromedp.EmulateViewportOption{chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait}},
		{"200 %", 640, []chromedp.EmulateViewportOption{chromedp.EmulateScale(2)}},
	} {
		p.do(t, chromedp.EmulateViewport(c.width, 800, c.opts...))
		got := p.eval(t, `(function () {
			var w = document.documentElement.clientWidth, box = document.querySelector(".table-box");
			var wide = Array.from(document.body.querySelectorAll("*")).filter(e => !e.closest(".table-box") && e.getBoundingClientRect().right > w + 0.5).map(e => e.tagName + "." + e.className);
			return [innerWidth, document.documentElement.scrollWidth <= w, box.scrollWidth > box.clientWidth, box.tabIndex].join("|") + "|" + wide.join(" ");
		})()`)
		if want := fmt.Sprintf("%d|true|true|0|", c.width); got != want {
			t.Errorf("%s: innerWidth|fits|table scrolls in its box|box focusable|too wide = %q, want %q", c.name, got, want)
		}
	}
	p.do(t, chromedp.EmulateViewport(320, 800, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	// A tap on a shortened path opens it.
	long := `Array.from(document.querySelectorAll("#files tbody tr")).find(r => r.cells[0].textContent.startsWith("Marie")).cells[1].querySelector("details")`
	xy := evalAs[[]float64](t, p, `(function () { var s = `+long+`.querySelector("summary"); s.scrollIntoView({block: "center", inline: "center"}); var r = s.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	p.do(t, chromedp.TapXY(xy[0], xy[1]))
	if got := p.eval(t, long+`.open`); got != true {
		t.Errorf("a tap on a shortened path at (%v): open %v", xy, got)
	}
	if os.Getenv("CI") != "" || axeFound() {
		runAxe(t, p, axeScript(t), "at 320 px")
	}
}

func axeFound() bool {
	if os.Getenv("PRET_AXE") != "" {
		return true
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return false
	}
	_, err = os.Stat(filepath.Join(cache, "pret-ci", "axe-core", "node_modules", "axe-core", "axe.min.js"))
	return err == nil
}

// checkScriptsOff: the same page is a plain table with every row, and no
// control that would do nothing.
func checkScriptsOff(t *testing.T, p browserPage) {
	if _, err := chromedp.Call(p.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	p.open(t)
	if got := p.visible(t); len(got) != len(browserFiles) {
		t.Errorf("scripts off: %d rows shown, want %d", len(got), len(browserFiles))
	}
	// hidden alone is not enough: a CSS display rule overrides it, so what
	// counts is the computed display of every control.
	if hidden := p.eval(t, `document.getElementById("controls").hidden && Array.from(document.querySelectorAll("#controls, #controls *, button.code-filter")).every(e => getComputedStyle(e).display === "none" || e.closest("#controls") && getComputedStyle(document.getElementById("controls")).display === "none")`); hidden != true {
		t.Error("scripts off: controls that cannot work are shown")
	}
	if text := p.eval(t, `document.body.innerText`).(string); !strings.Contains(text, "missing-date") || !strings.Contains(text, "ligne 2") {
		t.Errorf("scripts off: the problems are not readable:\n%s", text)
	}
}
