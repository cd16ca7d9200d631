package checklist

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
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

// TestHTMLReportInChromium opens the report in a real headless Chromium
// from a file:// URL: rows and counts, a code filter, a sort, no request
// anywhere, and a hostile file name and content that stay text.
func TestHTMLReportInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("Chromium démarre en quelques secondes : sans -short")
	}
	if os.Getenv("PRET_WINE") == "1" {
		t.Skip("sous Wine, pas de Chromium Windows : le rapport HTML est vérifié dans Chromium par les tests Linux")
	}
	if _, err := exec.LookPath(chromiumPath); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("chromium is needed on CI (.ci/test installs it): %v", err)
		}
		t.Skip("chromium absent; .ci/test installs it")
	}
	const evil = `<img src=x onerror=alert(1)>`
	files := []FileResult{
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
	}
	generated := time.Date(2026, 12, 1, 19, 5, 0, 0, time.Local)
	dir := t.TempDir()
	report := filepath.Join(dir, "rapport.html")
	out, err := os.Create(report)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteFilesReport(out, "html", FilesReport{Name: "pret valider", Files: files, Sources: []string{"rendus.zip"}, Generated: generated}); err != nil {
		t.Fatal(err)
	}
	out.Close()
	pageURL := (&url.URL{Scheme: "file", Path: report}).String()

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
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	defer cancelT()

	var mu sync.Mutex
	var requests []string
	dialogs := 0
	if err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests = append(requests, e.Request.URL)
		case *page.EventJavascriptDialogOpening:
			dialogs++
			go chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	}); err != nil {
		t.Fatal(err)
	}

	visible := func() []string {
		paths, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#files tbody tr")).filter(r => !r.hidden).map(r => r.cells[1].querySelector("code").title)`))
		if err != nil {
			t.Fatal(err)
		}
		return paths
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(pageURL), chromedp.WaitReady(chromedp.CSS("#files"))); err != nil {
		t.Fatal(err)
	}
	eval := func(expr string) any {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[any](expr))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	rows := eval(`document.querySelectorAll("#files tbody tr").length`)
	nFiles := eval(`document.getElementById("n-files").textContent`)
	nInvalid := eval(`document.getElementById("n-invalid").textContent`)
	imgs := eval(`document.querySelectorAll("img").length`)
	scripts := eval(`document.scripts.length`)
	evilCell := eval(`Array.from(document.querySelectorAll("#files tbody tr")).map(r => r.cells[0].textContent).filter(t => t.includes("onerror"))[0] || ""`)
	if rows != float64(len(files)) || nFiles != "6" || nInvalid != "4" {
		t.Errorf("rows %d, files %q, invalid %q", rows, nFiles, nInvalid)
	}
	if imgs != float64(0) || scripts != float64(1) || evilCell != evil {
		t.Errorf("the hostile name became markup: %d img, %d scripts, cell %q", imgs, scripts, evilCell)
	}
	if got := visible(); len(got) != len(files) {
		t.Errorf("scripts on, nothing filtered yet: %v", got)
	}
	// A bidi control in a name is shown as a marker, not applied: the
	// cell's text holds the code point and no control, and the marker is
	// drawn.
	zoe := eval(`document.querySelector("#files tbody tr.valide").cells[1].textContent`)
	marker := eval(`(function () { var m = document.querySelector("#files tbody tr.valide td span.bidi"); var s = getComputedStyle(m); return m.textContent + "|" + s.display + "|" + s.borderTopStyle + "|" + (m.getBoundingClientRect().width > 0); })()`)
	if zoe != "rendus/zoeU+202E/acces.md" || marker != "U+202E|inline|solid|true" {
		t.Errorf("bidi control: cell %q, marker %q", zoe, marker)
	}
	if got := eval(`document.querySelector("#files tbody tr.valide").textContent`).(string); !strings.Contains(got, "(vérifié)") || !strings.Contains(got, "oui") {
		t.Errorf("zoé's row: %q", got)
	}

	// The archive's name and the date of generation at the top.
	if meta := eval(`document.getElementById("meta").textContent`); meta != "Rendus lus : rendus.zip · généré le 1 décembre 2026 à 19:05" {
		t.Errorf("meta %q", meta)
	}
	// The leak first, as an incident, above the summary and in the table.
	incident := eval(`(function () { var s = document.getElementById("incidents"); var first = document.querySelector("#files tbody tr"); return [s.compareDocumentPosition(document.getElementById("resume")) === Node.DOCUMENT_POSITION_FOLLOWING, s.textContent, first.classList.contains("incident"), first.cells[0].textContent, first.cells[6].textContent].join("|"); })()`).(string)
	if parts := strings.Split(incident, "|"); len(parts) != 5 || parts[0] != "true" || !strings.Contains(parts[1], leakIncident) || !strings.Contains(parts[1], "yann (yann@exemple.fr)") ||
		parts[2] != "true" || parts[3] != "yannyann@exemple.fr" || !strings.Contains(parts[4], "Incident : "+leakIncident) {
		t.Errorf("incident: %q", incident)
	}
	// Duplicate groups by learner names, the path on hover.
	if dups := eval(`Array.from(document.querySelectorAll("#duplicates > li")).map(l => l.textContent + "|" + Array.from(l.querySelectorAll(".who")).map(w => w.title).join(" ")).join("/")`); dups != "bob, chloé|rendus/bob/acces.md rendus/chloe/acces.md" {
		t.Errorf("duplicates %q", dups)
	}
	// Compact rows: a long path and a fingerprint shown short, on one
	// line, the whole value in the tooltip.
	evilPath := "rendus/" + evil + "/acces.md"
	compact := eval(`(function () { var r = Array.from(document.querySelectorAll("#files tbody tr")).find(r => r.cells[0].textContent.includes("onerror")); var b = Array.from(document.querySelectorAll("#files tbody tr")).find(r => r.cells[0].textContent === "bob"); var p = r.cells[1].querySelector("code"), f = b.cells[5].querySelector("code"); return [p.textContent, p.title, f.textContent, f.title, getComputedStyle(r.cells[1]).whiteSpace].join("|"); })()`)
	if want := strings.Join([]string{"rendus/…/acces.md", evilPath, fpA[:15] + "…", fpA, "nowrap"}, "|"); compact != want {
		t.Errorf("compact cells %q, want %q", compact, want)
	}
	// A copy of a short value, or of a whole row, gives the whole value.
	copied := func(selectJS string) string {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(function () { var sel = window.getSelection(); sel.removeAllRanges(); var range = document.createRange(); `+selectJS+` sel.addRange(range);
			var dt = new DataTransfer(); document.dispatchEvent(new ClipboardEvent("copy", {clipboardData: dt, bubbles: true, cancelable: true})); return dt.getData("text/plain"); })()`))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	bob := `Array.from(document.querySelectorAll("#files tbody tr")).find(r => r.cells[0].textContent === "bob")`
	if got := copied(`range.selectNodeContents(` + bob + `.cells[5].querySelector("code").firstChild);`); got != fpA {
		t.Errorf("copy of a short fingerprint: %q", got)
	}
	if got := copied(`range.selectNode(` + bob + `);`); !strings.Contains(got, fpA) || !strings.Contains(got, "rendus/bob/acces.md") {
		t.Errorf("copy of a row: %q", got)
	}
	// The search finds a whole fingerprint, though it is shown short.
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#f-search"), fpA)); err != nil {
		t.Fatal(err)
	}
	eval(`document.getElementById("f-search").dispatchEvent(new Event("input"))`)
	if got := visible(); strings.Join(got, "|") != "rendus/bob/acces.md|rendus/chloe/acces.md" {
		t.Errorf("search on a whole fingerprint: %q", got)
	}
	eval(`document.getElementById("f-reset").click()`)

	// A code filter, from the bar of the summary.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button.code-filter[data-code="missing-date"]`))); err != nil {
		t.Fatal(err)
	}
	got := visible()
	want := []string{evilPath, "rendus/bob/acces.md"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("filtered on missing-date: %q, want %q", got, want)
	}
	// Sort by learner, then again for the other way round.
	readLearners := func() []string {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#files tbody tr")).filter(r => !r.hidden).map(r => r.cells[0].textContent)`))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`button.code-filter[data-code="missing-date"]`)), // off again
		chromedp.Click(chromedp.CSS(`#files thead th:nth-child(1) button`)),
	); err != nil {
		t.Fatal(err)
	}
	learners := readLearners()
	wantOrder := []string{evil, "alice", "bob", "chloé", "yannyann@exemple.fr", "zoé"}
	if strings.Join(learners, "|") != strings.Join(wantOrder, "|") {
		t.Errorf("sorted by learner: %q, want %q", learners, wantOrder)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#files thead th:nth-child(1) button`))); err != nil {
		t.Fatal(err)
	}
	if learners = readLearners(); learners[0] != "zoé" || learners[len(learners)-1] != evil {
		t.Errorf("sorted the other way: %q", learners)
	}
	// The verdict filter and the search box.
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#f-verdict"), "avertissement")); err != nil {
		t.Fatal(err)
	}
	eval(`document.getElementById("f-verdict").dispatchEvent(new Event("change"))`)
	if got := visible(); len(got) != 1 || got[0] != "rendus/alice/acces.md" {
		t.Errorf("verdict filter: %q", got)
	}

	// Scripts off: the same page is a plain table with every row, and no
	// control that would do nothing.
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(pageURL), chromedp.WaitReady(chromedp.CSS("#files"))); err != nil {
		t.Fatal(err)
	}
	if got := visible(); len(got) != len(files) {
		t.Errorf("scripts off: %d rows shown, want %d", len(got), len(files))
	}
	// hidden alone is not enough: a CSS display rule overrides it, so what
	// counts is the computed display of every control.
	if hidden := eval(`document.getElementById("controls").hidden && Array.from(document.querySelectorAll("#controls, #controls *, button.code-filter")).every(e => getComputedStyle(e).display === "none" || e.closest("#controls") && getComputedStyle(document.getElementById("controls")).display === "none")`); hidden != true {
		t.Error("scripts off: controls that cannot work are shown")
	}
	if text := eval(`document.body.innerText`).(string); !strings.Contains(text, "missing-date") || !strings.Contains(text, "ligne 2") {
		t.Errorf("scripts off: the problems are not readable:\n%s", text)
	}

	mu.Lock()
	defer mu.Unlock()
	// The page's own loads are seen, so the watch is not blind.
	if len(requests) == 0 {
		t.Error("no network event seen at all: the no-request check would prove nothing")
	}
	for _, r := range requests {
		if r != pageURL {
			t.Errorf("the page made a request: %s", r)
		}
	}
	if dialogs != 0 {
		t.Errorf("%d dialogs opened", dialogs)
	}
}
