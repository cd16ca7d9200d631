package onboarding

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/internal/safefile"
	"github.com/romeo-pret/pret/keys"
)

// The answers to the account question, as the learner reads them.
const (
	AnswerNotYet    = "Pas encore demandé"
	AnswerRequested = "Demandé, pas encore ouvert"
	AnswerOpen      = "Le compte est ouvert"
	AccountQuestion = "Où en est votre compte d'accès ?"
)

// Account is what the account question needs.
type Account struct {
	P        Prompter
	Out      io.Writer
	State    *State      // what is recorded, never nil
	StateErr *StateError // the state file could not be read
	Channel  string      // how to ask for the account, as the organisers said
	Today    time.Time
	Session  time.Time
}

// DefaultDate is the date recorded for status, else today.
func DefaultDate(st *State, status string, today time.Time) time.Time {
	if _, d, ok := st.Latest(status); ok {
		return d
	}
	return today
}

// RecordedLine says what the state holds; empty when nothing usable is.
func RecordedLine(st *State) string {
	r, d, ok := st.Latest("")
	if !ok {
		return ""
	}
	if r.Verified() {
		line := fmt.Sprintf("Compte vérifié ouvert le %s", dates.Day(d))
		if _, rd, ok := st.Latest(StatusRequested); ok {
			line += fmt.Sprintf(" (demandé le %s)", dates.Day(rd))
		}
		return line + "."
	}
	return fmt.Sprintf("Demande du compte notée le %s.", dates.Day(d))
}

// Ask is the account question, the recorded answer as default; nil: not requested.
func (a Account) Ask() (*Declaration, error) {
	if a.StateErr != nil {
		fmt.Fprintf(a.Out, "Attention : %s.\nIl ne sera pas modifié ; pret continue sans lui.\nConseil : %s.\n", esc(a.StateErr.Error()), esc(a.StateErr.Hint()))
	}
	options := []string{AnswerNotYet, AnswerRequested, AnswerOpen}
	statuses := []string{"", StatusRequested, StatusVerified}
	def := 0
	if r, _, ok := a.State.Latest(""); ok {
		// A request on record: "not yet" is no longer an answer.
		fmt.Fprintln(a.Out, RecordedLine(a.State))
		options, statuses = options[1:], statuses[1:]
		def = map[bool]int{false: 0, true: 1}[r.Verified()]
	}
	i, err := a.P.Select(AccountQuestion, options, def,
		"Un seul compte par personne : s'il est demandé, n'en demandez pas un second. Entrée garde la réponse proposée.")
	if err != nil {
		return nil, err
	}
	status := statuses[i]
	if status == "" {
		fmt.Fprintf(a.Out, "Demandez le compte d'accès %s, une seule fois.\n", esc(channelOr(a.Channel)))
		fmt.Fprintln(a.Out, "pret ne connaît pas le nom du nœud de login : il viendra des organisateurs.")
		done, err := askYesNo(a.P, "La demande est-elle faite ?", false,
			"Oui : pret note la date de la demande et écrit acces.md. Non : relancez pret une fois la demande faite.")
		if err != nil || !done {
			return nil, err
		}
		status = StatusRequested
	}
	question := "Date de la demande du compte :"
	if status == StatusVerified {
		question = "Date de la vérification du compte (le jour où vous l'avez trouvé ouvert) :"
	}
	def0 := DefaultDate(a.State, status, a.Today)
	help := fmt.Sprintf("Entrée garde le %s. Formes acceptées : %s.", dates.Long(def0), dates.Forms)
	for {
		answer, err := a.P.Input(question, def0.Format(dates.ISO), help)
		if err != nil {
			return nil, err
		}
		d, err := ReadAccessDate(answer, a.State, status, a.Today, a.Session)
		if err != nil {
			msg := err.Error() // quotes what was typed
			r, n := utf8.DecodeRuneInString(msg)
			fmt.Fprintf(a.Out, "✘ %s.\n", esc(string(unicode.ToUpper(r))+msg[n:]))
			continue
		}
		fmt.Fprintf(a.Out, "Date comprise : %s.\n", dates.Long(d))
		if warning, _ := CheckAccessDate(d, a.Today, a.Session); warning != "" {
			// Said at once, not after the questions of acces.md (outside tester).
			fmt.Fprintf(a.Out, "Attention : %s.\n", warning)
		}
		return &Declaration{Status: status, Date: d}, nil
	}
}

// ExpandHome turns a leading ~ into home.
func ExpandHome(p, home string) string {
	switch {
	case home != "" && p == "~":
		return home
	case home != "" && (strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`)):
		return filepath.Join(home, p[2:])
	}
	return p
}

// TildePath writes p under home as ~/….
func TildePath(p, home string) string {
	if home == "" {
		return p
	}
	rel, err := filepath.Rel(home, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return p
	}
	if rel == "." {
		return "~"
	}
	return "~/" + filepath.ToSlash(rel)
}

// Where lets the learner choose acces.md's folder, refusing at once what refusedPlace names.
func Where(p Prompter, out io.Writer, file, home string, store keys.Store, why string) (string, error) {
	if why == "" {
		why = refusedPlace(file, store)
	}
	for shown := filepath.Dir(file); ; {
		dir := filepath.Dir(file)
		if why != "" {
			fmt.Fprintf(out, "✘ %s : %s.\n", esc(shown), why)
		} else {
			fmt.Fprintf(out, "acces.md sera écrit ici : %s\n", esc(file))
			// A .git in dir or a folder above, up to the root included.
			for root, below := dir, ""; root != below; root, below = filepath.Dir(root), root {
				if _, err := os.Lstat(filepath.Join(root, ".git")); err == nil {
					fmt.Fprintf(out, "Attention : ce dossier est un dépôt Git (%s) : acces.md y sera visible par « git status ».\n", esc(root))
					break
				}
			}
			i, err := p.Select("Écrire acces.md à cet endroit ?", []string{"Oui", "Non, choisir un autre dossier"}, 0,
				"acces.md est le fichier à envoyer aux organisateurs ; un dossier hors de tout dépôt Git évite de le publier par mégarde.")
			if err != nil || i == 0 {
				return file, err
			}
		}
		answer, err := p.Input("Dossier où écrire acces.md :", TildePath(dir, home), "Un dossier qui existe, hors du dossier de la clé SSH ; ~ est votre dossier personnel.")
		if err != nil {
			return "", err
		}
		d := ExpandHome(strings.TrimSpace(answer), home)
		if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		if filepath.Base(d) == filepath.Base(file) {
			// The file's own path typed for its folder: take its folder.
			if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
				d = filepath.Dir(d)
			}
		}
		next := filepath.Join(d, filepath.Base(file))
		if why = refusedPlace(next, store); why == "" {
			file = next
		}
		shown = d
	}
}

// refusedPlace says why pret will not write acces.md at file, or "".
func refusedPlace(file string, store keys.Store) string {
	fi, err := os.Stat(filepath.Dir(file))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "ce dossier n'existe pas"
	case err != nil:
		return safefile.Reason(err)
	case !fi.IsDir():
		return "c'est un fichier, pas un dossier"
	case Protected(store).CheckTree(file) != nil:
		return "c'est le dossier de la clé SSH ou ~/.ssh, ou un dossier en dessous : pret n'y écrit jamais ; choisissez-en un autre"
	}
	if fi, err := os.Lstat(file); err == nil && !fi.Mode().IsRegular() && fi.Mode()&os.ModeSymlink == 0 {
		return filepath.Base(file) + " y existe déjà et n'est pas un fichier"
	}
	// PlanAccess reads the file there before it asks to replace it.
	_, err = safefile.Read(file, safefile.Access, safefile.NoFollow)
	if err != nil && !errors.Is(err, os.ErrNotExist) && !errors.Is(err, safefile.ErrTooLarge) && !errors.Is(err, safefile.ErrSymlink) {
		return filepath.Base(file) + " y est illisible : " + safefile.Reason(err)
	}
	return ""
}
