package onboarding

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/keys/signing"
)

// TestSignedOnlyWhenItHolds (issue 32): a file is called « signé » only
// while its signature holds; a hand-edited one is said to carry a
// signature that no longer holds.
func TestSignedOnlyWhenItHolds(t *testing.T) {
	w, _, data := signedFixture(t)
	other := Declaration{StatusVerified, testenv.Day("2026-10-19")}
	p, err := PlanAccess(w.Settings, other)
	if err != nil || !p.Signed || !p.SignatureHolds {
		t.Fatalf("a signed file: signed %v, holds %v, %v", p.Signed, p.SignatureHolds, err)
	}
	if n := signatureNote(p, "le remplacer"); !strings.Contains(n, "ce fichier est signé") {
		t.Errorf("holding: %q", n)
	}
	os.WriteFile(w.File, bytes.Replace(data, []byte("2026-10-20"), []byte("2026-10-18"), 1), 0o644)
	p, err = PlanAccess(w.Settings, other)
	if err != nil || !p.Signed || p.SignatureHolds {
		t.Fatalf("an edited file: signed %v, holds %v, %v", p.Signed, p.SignatureHolds, err)
	}
	var out bytes.Buffer
	pr := &fakePrompter{t: t, answers: []answer{{kind: "select", text: "Non"}, {kind: "select", text: "Non"}}}
	AskReplace(pr, &out, false)(p)
	AskDateLine(pr, &out, false)(p)
	if s := out.String(); strings.Contains(s, "est signé") || strings.Count(s, "une signature qui ne tient plus") != 2 {
		t.Errorf("an edited file called signed:\n%s", s)
	}
}

// TestNoSignatureOfferForStaleFile (issue 32): a kept acces.md that does not
// state the declaration just recorded is not offered to the signature.
func TestNoSignatureOfferForStaleFile(t *testing.T) {
	w, _, data := signedFixture(t)
	hand := bytes.Replace(data, []byte("2026-10-20"), []byte("2026-10-18"), 1)
	hand = bytes.Replace(hand, []byte(signing.SigMarker), []byte("Ma note.\n\n"+signing.SigMarker), 1)
	os.WriteFile(w.File, hand, 0o644)
	os.Remove(w.StatePath)
	w.P = &fakePrompter{t: t, answers: []answer{
		{kind: "select", text: AnswerRequested}, {kind: "input", text: "19/10/2026"},
		{kind: "select", text: "Oui"}, {kind: "select", text: "Non"}, {kind: "select", text: "Non"},
	}}
	out := w.Out.(*bytes.Buffer)
	if err := w.Run(); err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	if p := w.P.(*fakePrompter); len(p.answers) != 0 || contains(p.asked, "select: "+offerQ) {
		t.Fatalf("asked %v, left %v", p.asked, p.answers)
	}
	if !strings.Contains(out.String(), "il n'est pas proposé à la signature") || strings.Contains(out.String(), "est signé") {
		t.Errorf("screen:\n%s", out)
	}
	if now, _ := os.ReadFile(w.File); !bytes.Equal(now, hand) {
		t.Error("acces.md changed")
	}
}
