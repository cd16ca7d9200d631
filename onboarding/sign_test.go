package onboarding

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/romeo-pret/pret/checklist/acces"
	"github.com/romeo-pret/pret/internal/testenv"
	"github.com/romeo-pret/pret/keys"
	"github.com/romeo-pret/pret/keys/signing"
)

// withSigner gives the wizard the signer cmd gives it, with the real
// validator.
func withSigner(w *Wizard) *AccessSigner {
	w.Signer = &AccessSigner{Store: w.Store, File: w.File, Random: rand.Reader, SessionDay: w.Session.Day, Today: w.Today}
	return w.Signer
}

// signedBy reports whether acces.md carries a valid signature by the
// wizard's key.
func signedBy(t *testing.T, w *Wizard) bool {
	t.Helper()
	data, err := os.ReadFile(w.File)
	if err != nil {
		t.Fatal(err)
	}
	f := signing.SplitSigned(data)
	if f.Verify() != nil {
		return false
	}
	st, err := w.Store.Inspect()
	if err != nil {
		t.Fatal(err)
	}
	return ssh.FingerprintSHA256(f.Sig.PublicKey()) == ssh.FingerprintSHA256(st.Public())
}

const offerQ = "Signer acces.md ? Cela prouve aux organisateurs que vous avez la clé et que vous vous souvenez de sa passphrase."

func TestWizardOffersSignature(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	newKey := []answer{{kind: "password", text: goodPass}, {kind: "password", text: goodPass}, {kind: "select", text: AnswerRequested}, {kind: "input"}, {kind: "select", text: "Oui"}}
	cases := []struct {
		name    string
		answers []answer
		signed  bool
		code    int // 1: a refusal (*Error), -1: interrupted, 0: success
		want    []string
	}{
		{"yes, right passphrase", append(newKey, answer{kind: "select", choice: 0}, answer{kind: "password", text: goodPass}),
			true, 0, []string{"signé avec la clé SHA256:"}},
		{"two wrong, then right", append(newKey, answer{kind: "select", choice: 0},
			answer{kind: "password", text: "faux un"}, answer{kind: "password", text: "faux deux"}, answer{kind: "password", text: goodPass}),
			true, 0, []string{"essai 1 sur 3", "essai 2 sur 3", "signé avec la clé"}},
		{"three wrong", append(newKey, answer{kind: "select", choice: 0},
			answer{kind: "password", text: "faux un"}, answer{kind: "password", text: "faux deux"}, answer{kind: "password", text: "faux trois"}),
			false, 1, []string{"essai 2 sur 3"}},
		{"declined", append(newKey, answer{kind: "select", choice: 1}), false, 0, []string{"pret signer"}},
		{"Ctrl-C at the passphrase", append(newKey, answer{kind: "select", choice: 0}, answer{kind: "password", err: ErrInterrupted}),
			false, -1, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			w, out, p := newWizard(t, dir, tc.answers)
			withSigner(w)
			err := w.Run()
			var before []byte
			if tc.code != 0 {
				var e *Error
				switch {
				case tc.code == -1 && errors.Is(err, ErrInterrupted):
				case errors.As(err, &e) && tc.code == 1 && !e.Input && strings.Contains(e.Msg, "passphrase incorrecte"):
				default:
					t.Fatalf("got %v, want code %d", err, tc.code)
				}
				before, _ = os.ReadFile(w.File)
				if signing.SplitSigned(before).Claimed {
					t.Fatal("file touched after a failed signature")
				}
			} else if err != nil {
				t.Fatalf("Run: %v\n%s", err, out)
			}
			if len(p.answers) != 0 {
				t.Fatalf("questions not asked: %+v", p.answers)
			}
			if got := signedBy(t, w); got != tc.signed {
				t.Fatalf("signed = %v, want %v\n%s", got, tc.signed, out)
			}
			for _, s := range tc.want {
				if !strings.Contains(out.String(), s) {
					t.Errorf("screen lacks %q:\n%s", s, out)
				}
			}
			if !contains(p.asked, "select: "+offerQ) {
				t.Errorf("offer not made: %q", p.asked)
			}
			for _, secret := range []string{goodPass, "faux un", "faux deux", "faux trois"} {
				data, _ := os.ReadFile(w.File)
				if strings.Contains(out.String(), secret) || bytes.Contains(data, []byte(secret)) || err != nil && strings.Contains(err.Error(), secret) {
					t.Errorf("passphrase %q shown or written", secret)
				}
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// A later run keeps a signed, unchanged acces.md without asking; an
// acces.md edited since its signature is offered again.
func TestWizardLaterRuns(t *testing.T) {
	dir := t.TempDir()
	first := []answer{{kind: "password", text: goodPass}, {kind: "password", text: goodPass}, {kind: "select", text: AnswerRequested}, {kind: "input"},
		{kind: "select", text: "Oui"}, {kind: "select", choice: 0}, {kind: "password", text: goodPass}}
	w, out, _ := newWizard(t, dir, first)
	withSigner(w)
	if err := w.Run(); err != nil || !signedBy(t, w) {
		t.Fatalf("first run: %v\n%s", err, out)
	}
	signed, _ := os.ReadFile(w.File)

	w, out, p := newWizard(t, dir, []answer{{kind: "select", enter: true}, {kind: "input"}, {kind: "select", text: "Oui"}})
	withSigner(w)
	if err := w.Run(); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(w.File); !bytes.Equal(now, signed) {
		t.Fatal("the signed file was rewritten")
	}
	if contains(p.asked, "select: "+offerQ) || !strings.Contains(out.String(), "est signé par votre clé") {
		t.Fatalf("signed file offered again or not reported: %q\n%s", p.asked, out)
	}

	// Edited by hand below the title: signature broken, file kept, offer.
	edited := bytes.Replace(signed, []byte("\n"), []byte("\n\n"), 1)
	os.WriteFile(w.File, edited, 0o644)
	w, out, p = newWizard(t, dir, []answer{{kind: "select", enter: true}, {kind: "input"}, {kind: "select", text: "Oui"}, {kind: "select", choice: 1},
		{kind: "select", choice: 0}, {kind: "password", text: goodPass}})
	withSigner(w)
	if err := w.Run(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "ne tient plus") || !contains(p.asked, "select: "+offerQ) || !signedBy(t, w) {
		t.Fatalf("broken signature not offered again:\n%s", out)
	}
	if now, _ := os.ReadFile(w.File); !bytes.HasPrefix(now, signing.SplitSigned(edited).Message) {
		t.Fatal("re-signing changed the signed part")
	}
}

// Every refusal of signature.md leaves the file byte for byte as it was,
// and is decided before the passphrase is asked.
func TestSignRefusals(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	mk := func(t *testing.T) (*Wizard, *AccessSigner, []byte) {
		dir := t.TempDir()
		w, _, _ := newWizard(t, dir, nil)
		a := withSigner(w)
		copyDir(t, sharedKey(t), w.Store.Dir)
		if _, err := record(Recording{Settings: w.Settings, Declaration: Declaration{StatusRequested, testenv.Day(testenv.Today)}}); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(w.File)
		return w, a, data
	}
	other := func(t *testing.T) string {
		priv, _, err := keys.Generate(rand.Reader, "x", []byte(goodPass))
		if err != nil {
			t.Fatal(err)
		}
		p, _ := keys.ParsePrivate(priv)
		return ssh.FingerprintSHA256(p.Public)
	}
	cases := map[string]func(t *testing.T, w *Wizard, data []byte){
		"another fingerprint": func(t *testing.T, w *Wizard, data []byte) {
			st, _ := w.Store.Inspect()
			os.WriteFile(w.File, bytes.Replace(data, []byte(ssh.FingerprintSHA256(st.Public())), []byte(other(t)), 1), 0o644)
		},
		"fails pret valider": func(t *testing.T, w *Wizard, data []byte) {
			os.WriteFile(w.File, bytes.Replace(data, []byte("Connexion uniquement"), []byte("Connexion surtout"), 1), 0o644)
		},
		"stray marker": func(t *testing.T, w *Wizard, data []byte) {
			os.WriteFile(w.File, append([]byte(signing.SigMarker+" \n"), data...), 0o644)
		},
		"no key": func(t *testing.T, w *Wizard, data []byte) {
			os.Remove(w.Store.PrivatePath())
		},
		"unencrypted key": func(t *testing.T, w *Wizard, data []byte) {
			priv, err := os.ReadFile(w.Store.PrivatePath())
			if err != nil {
				t.Fatal(err)
			}
			raw, err := ssh.ParseRawPrivateKeyWithPassphrase(priv, []byte(goodPass))
			if err != nil {
				t.Fatal(err)
			}
			block, err := ssh.MarshalPrivateKey(raw, "seance-novembre")
			if err != nil {
				t.Fatal(err)
			}
			os.Remove(w.Store.PrivatePath())
			os.WriteFile(w.Store.PrivatePath(), pem.EncodeToMemory(block), 0o600)
		},
		"no acces.md": func(t *testing.T, w *Wizard, data []byte) {
			os.Remove(w.File)
		},
		// Valid, but the block, in LF, would make its lines one
		// (outside tester).
		"lines ended by CR alone": func(t *testing.T, w *Wizard, data []byte) {
			os.WriteFile(w.File, bytes.ReplaceAll(data, []byte("\n"), []byte("\r")), 0o644)
		},
	}
	// More bcrypt rounds than pret opens: refused before the passphrase
	// is asked, with the count, as pret verifier warns.
	for _, n := range []uint32{keys.MaxKDFRounds + 1, 3000, 1<<32 - 1} {
		cases[fmt.Sprintf("%d rounds", n)] = func(t *testing.T, w *Wizard, data []byte) {
			priv, _ := os.ReadFile(w.Store.PrivatePath())
			block, _ := pem.Decode(priv)
			b := block.Bytes
			off := len("openssh-key-v1\x00")
			for range 2 { // cipher, kdf name
				off += 4 + int(binary.BigEndian.Uint32(b[off:]))
			}
			salt := int(binary.BigEndian.Uint32(b[off+4:]))
			binary.BigEndian.PutUint32(b[off+8+salt:], n)
			os.Remove(w.Store.PrivatePath())
			os.WriteFile(w.Store.PrivatePath(), pem.EncodeToMemory(block), 0o600)
			if p, err := keys.ParsePrivate(pem.EncodeToMemory(block)); err != nil || p.Rounds != n {
				t.Fatalf("rounds rewritten as %v (%v)", p, err)
			}
		}
	}
	for name, spoil := range cases {
		t.Run(name, func(t *testing.T) {
			w, a, data := mk(t)
			spoil(t, w, data)
			before, beforeErr := os.ReadFile(w.File)
			_, err := a.Prepare()
			var e *Error
			if !errors.As(err, &e) || e.Input || e.Hint == "" {
				t.Fatalf("got %v, want a refusal with a hint", err)
			}
			after, afterErr := os.ReadFile(w.File)
			if !bytes.Equal(before, after) || (beforeErr == nil) != (afterErr == nil) {
				t.Fatal("file touched by a refusal")
			}
		})
	}

	// A lone CR in a file with LF is a space: the file signs as it is
	// (the refusal of a file of CRs alone once took it for one).
	t.Run("a lone CR among LF", func(t *testing.T) {
		w, a, data := mk(t)
		crAtEnd := append(bytes.TrimSuffix(data, []byte("\n")), '\r')
		os.WriteFile(w.File, crAtEnd, 0o644)
		if _, err := a.Prepare(); err != nil {
			t.Fatalf("refused: %v", err)
		}
	})

	// A <script> left open at the end: the marker and the block would be
	// read into it. Refused before the passphrase, its line named.
	t.Run("script left open", func(t *testing.T) {
		w, a, data := mk(t)
		open := append(bytes.Clone(data), "\n<script>\n"...)
		os.WriteFile(w.File, open, 0o644)
		_, err := a.Prepare()
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Msg, "bloc resté ouvert") || !strings.HasSuffix(e.Msg, fmt.Sprintf("(ligne %d)", bytes.Count(open, []byte("\n")))) || e.Hint == "" {
			t.Fatalf("got %v", err)
		}
		if now, _ := os.ReadFile(w.File); !bytes.Equal(now, open) {
			t.Fatal("file touched by a refusal")
		}
	})

	// A comment after the block: refused as text is, the cause said.
	t.Run("comment after the block", func(t *testing.T) {
		w, a, signed := signedFixture(t)
		withComment := append(bytes.Clone(signed), "<!-- relu -->\n"...)
		os.WriteFile(w.File, withComment, 0o644)
		_, err := a.Prepare()
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Msg, "pas même un commentaire HTML") || e.Hint == "" {
			t.Fatalf("got %v", err)
		}
		if now, _ := os.ReadFile(w.File); !bytes.Equal(now, withComment) {
			t.Fatal("file touched by a refusal")
		}
	})

	t.Run("file edited during the passphrase", func(t *testing.T) {
		w, a, data := mk(t)
		plan, err := a.Prepare()
		if err != nil {
			t.Fatal(err)
		}
		edited := append(bytes.Clone(data), "Note ajoutée pendant la saisie.\n"...)
		os.WriteFile(w.File, edited, 0o644)
		var e *Error
		if err := plan.Sign([]byte(goodPass)); !errors.As(err, &e) || e.Input {
			t.Fatalf("got %v", err)
		}
		if now, _ := os.ReadFile(w.File); !bytes.Equal(now, edited) {
			t.Fatal("the learner's edit was overwritten")
		}
	})

	t.Run("scripted wrong passphrase: one try, untouched", func(t *testing.T) {
		w, a, data := mk(t)
		plan, err := a.Prepare()
		if err != nil {
			t.Fatal(err)
		}
		err = plan.Sign([]byte("pas la bonne"))
		var e *Error
		if !errors.As(err, &e) || e.Input || e.Msg != "passphrase incorrecte ; "+esc(w.File)+" n'a pas été modifié" || strings.Contains(err.Error(), "pas la bonne") {
			t.Fatalf("got %v", err)
		}
		if now, _ := os.ReadFile(w.File); !bytes.Equal(now, data) {
			t.Fatal("file touched")
		}
		entries, _ := os.ReadDir(filepath.Dir(w.File))
		for _, en := range entries {
			if strings.Contains(en.Name(), ".tmp-") {
				t.Fatalf("temporary file left: %s", en.Name())
			}
		}
	})

	t.Run("mode kept", func(t *testing.T) {
		w, a, _ := mk(t)
		os.Chmod(w.File, 0o600)
		plan, err := a.Prepare()
		if err != nil {
			t.Fatal(err)
		}
		if err := plan.Sign([]byte(goodPass)); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(w.File); fi.Mode().Perm() != 0o600 || !signedBy(t, w) {
			t.Fatalf("mode %v after signing", fi.Mode())
		}
	})
}

// `pret acces` after `pret signer`, with the same content, leaves the
// signed file alone instead of unsigning it.
func TestPlanAccessKeepsSignedCopy(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	w, _, _ := signedFixture(t)
	again, err := PlanAccess(w.Settings, Declaration{StatusRequested, testenv.Day(testenv.Today)})
	if err != nil || again.Status != FileSame {
		t.Fatalf("status %v, %v", again.Status, err)
	}
	other, _ := PlanAccess(w.Settings, Declaration{StatusVerified, testenv.Day("2026-10-19")})
	if other.Status != FileDifferent {
		t.Fatal("different content reads as the same")
	}
}

// signedFixture is a wizard whose acces.md is signed by its key.
func signedFixture(t *testing.T) (*Wizard, *AccessSigner, []byte) {
	t.Helper()
	w, _, _ := newWizard(t, t.TempDir(), nil)
	a := withSigner(w)
	copyDir(t, sharedKey(t), w.Store.Dir)
	if _, err := record(Recording{Settings: w.Settings, Declaration: Declaration{StatusRequested, testenv.Day(testenv.Today)}}); err != nil {
		t.Fatal(err)
	}
	plan, err := a.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Sign([]byte(goodPass)); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(w.File)
	return w, a, data
}

// afterMarker are the ways text ends up after, or around, the signature
// block of a signed file: appended notes, a key pasted by
// `cat ~/.ssh/id_ed25519_romeo >> acces.md`, a marker moved to every
// line, text between the marker and the block, inside the fence, a
// damaged armour. None may be dropped by signing again.
func afterMarker(t *testing.T, signed []byte) map[string][]byte {
	t.Helper()
	priv, _, err := keys.Generate(rand.Reader, "autre", []byte(goodPass))
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{
		"note":     "Note ajoutée après la signature.\n",
		"date":     "- Date de demande : 2026-10-21\n",
		"heading":  "## Suite\n",
		"fence":    "```\n",
		"crlf":     "ligne\r\n",
		"no-nl":    "dernier mot",
		"key":      string(priv),
		"armour":   "-----BEGIN SSH SIGNATURE-----\n",
		"marker":   signing.SigMarker + "\n",
		"nbsp":     "\u00a0x\n",
		"two":      "a\n\nb\n",
		"markdown": "> citation\n",
	}
	v := map[string][]byte{}
	f := signing.SplitSigned(signed)
	block := signed[len(f.Message):]
	for name, text := range texts {
		for _, gap := range []string{"", "\n", "\n\n  \n"} {
			v["after block+"+name+fmt.Sprintf("/gap%d", len(gap))] = append(append(bytes.Clone(signed), gap...), text...)
		}
		v["between marker and fence+"+name] = bytes.Replace(bytes.Clone(signed), []byte(signing.SigMarker+"\n"), []byte(signing.SigMarker+"\n"+text+"\n"), 1)
		v["inside fence after END+"+name] = bytes.Replace(bytes.Clone(signed), []byte("-----END SSH SIGNATURE-----\n"), []byte("-----END SSH SIGNATURE-----\n"+strings.TrimSuffix(text, "\n")+"\n"), 1)
	}
	// The marker moved onto each line of the signed part, the rest kept.
	lines := strings.SplitAfter(string(f.Message), "\n")
	for i := range lines {
		if strings.TrimSpace(lines[i]) == "" {
			continue
		}
		moved := strings.Join(lines[:i], "") + signing.SigMarker + "\n" + strings.Join(lines[i:], "")
		v[fmt.Sprintf("marker above line %d", i+1)] = []byte(moved)
		v[fmt.Sprintf("marker above line %d, block kept", i+1)] = append([]byte(moved), block...)
	}
	// A damaged armour: one base64 character replaced.
	i := bytes.Index(signed, []byte("U1NIU0lH")) + 12
	damaged := bytes.Clone(signed)
	damaged[i] = '*'
	v["damaged armour"] = damaged
	// A block never closed runs to the end of the file (CommonMark): with
	// only the armour in it, it is a signature block; with text after the
	// armour, that text would be dropped.
	v["block never closed, text after"] = append(bytes.TrimSuffix(bytes.Clone(signed), []byte("```\n")), "Ajouté après coup.\n"...)
	return v
}

// Signing again never drops text: whenever anything other than a
// well-formed block and blank lines follows the marker, Prepare refuses,
// names the line, leaves the file as it was; `pret valider` reports
// bad-signature there (never a false missing-…) and its advice is not
// « pret signer », which would refuse.
func TestResignNeverDropsText(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	w, a, signed := signedFixture(t)
	for name, data := range afterMarker(t, signed) {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(w.File, data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := a.Prepare()
			var e *Error
			if !errors.As(err, &e) || e.Input || e.Hint == "" || !strings.Contains(e.Msg, "ligne ") && !strings.Contains(e.Msg, "pret valider") {
				t.Fatalf("got %v, want a refusal naming the cause", err)
			}
			if now, _ := os.ReadFile(w.File); !bytes.Equal(now, data) {
				t.Fatal("file touched by a refusal")
			}
			res := acces.Validate(data, acces.Rules{KeyName: w.Store.Name + ".pub", SessionDay: w.Session.Day, Today: w.Today})
			var codes []string
			for _, p := range res.Problems {
				codes = append(codes, string(p.Code))
			}
			if !contains(codes, "bad-signature") && !contains(codes, "private-key-leak") {
				t.Fatalf("pret valider sees no problem: %v", codes)
			}
			for _, c := range codes {
				if strings.HasPrefix(c, "missing-") {
					t.Fatalf("false %s: the text after the marker was not read (%v)", c, codes)
				}
			}
			if contains(codes, "bad-signature") && (res.SignatureFix == "" || strings.HasPrefix(res.SignatureFix, "signez-le de nouveau")) {
				t.Fatalf("advice %q would send the learner to a refusal", res.SignatureFix)
			}
		})
	}
	// What a new signature may replace: the old block, blank lines, a
	// bare marker; the signed part is kept byte for byte.
	f := signing.SplitSigned(signed)
	for name, data := range map[string][]byte{
		"as signed":          signed,
		"trailing blanks":    append(bytes.Clone(signed), "\n \t\n\n"...),
		"bare marker":        append(bytes.Clone(f.Message), signing.SigMarker+"\n"...),
		"bare marker blanks": append(bytes.Clone(f.Message), signing.SigMarker+"\n\n\n"...),
		"unsigned":           f.Message,
	} {
		t.Run("replaces "+name, func(t *testing.T) {
			os.WriteFile(w.File, data, 0o644)
			plan, err := a.Prepare()
			if err != nil {
				t.Fatal(err)
			}
			if err := plan.Sign([]byte(goodPass)); err != nil {
				t.Fatal(err)
			}
			now, _ := os.ReadFile(w.File)
			if !bytes.Equal(signing.SplitSigned(now).Message, f.Message) || !signedBy(t, w) {
				t.Fatalf("signed part changed:\n%s", now)
			}
		})
	}
}

// The signature never takes a file over what `pret valider` reads as
// Markdown (16 KiB, acces-md.md): Prepare refuses a file over it, and a
// file under it, signed, stays valid (the signature block is not counted).
func TestSignStaysUnderSizeCap(t *testing.T) {
	if testing.Short() {
		t.Skip("plus d'une seconde : sans -short")
	}
	w, a, signed := signedFixture(t)
	msg := signing.SplitSigned(signed).Message
	const limit = 16 << 10
	for _, size := range []int{limit - 300, limit, limit + 1, limit + 2, limit + 37, acces.MaxAccessSize} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			pad := size - len(msg)
			// Its own paragraph, so that no rule reads it as part of the
			// required sentence.
			filler := "\n" + strings.Repeat("Remarque sans importance.\n", (pad-40)/26)
			filler += strings.Repeat("x", pad-len(filler)-1) + "\n"
			data := append(bytes.Clone(msg), filler...)
			if len(data) != size {
				t.Fatalf("built %d bytes, want %d", len(data), size)
			}
			os.WriteFile(w.File, data, 0o644)
			plan, err := a.Prepare()
			if size > limit+1 { // its last newline is not counted
				var e *Error
				if !errors.As(err, &e) || !strings.Contains(e.Msg, "too-large") {
					t.Fatalf("got %v, want the too-large refusal", err)
				}
				if now, _ := os.ReadFile(w.File); !bytes.Equal(now, data) {
					t.Fatal("file touched")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := plan.Sign([]byte(goodPass)); err != nil {
				t.Fatal(err)
			}
			now, _ := os.ReadFile(w.File)
			if res := acces.Validate(now, acces.Rules{KeyName: w.Store.Name + ".pub", SessionDay: w.Session.Day, Today: w.Today}); len(now) <= size || !res.Valid() {
				t.Fatalf("signed file (%d bytes) fails pret valider: %v", len(now), res.Problems)
			}
		})
	}
}
