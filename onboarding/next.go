package onboarding

import (
	"fmt"
	"strings"
	"time"

	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/keys"
)

// Placeholders of the ~/.ssh/config block: pret has no setting for the
// login host and never guesses one (cli.md); the learner types both.
const (
	HostPlaceholder = "NOEUD-DE-LOGIN"
	UserPlaceholder = "VOTRE-IDENTIFIANT"
)

// SSHConfig is the ~/.ssh/config block of apprenant.md, for the key at
// keyPath. pret prints it (`pret ssh-config`) and never writes it. The
// path comes from the configuration: escaped (checklist.Escape), so that
// a control or a bidi mark in it cannot act on the terminal it is
// printed on.
func SSHConfig(keyPath, home string) string {
	return fmt.Sprintf(`# Séance ROMEO — remplacez %s par le nom donné par les organisateurs
Host romeo
    HostName %s
    User %s
    IdentityFile %s
    IdentitiesOnly yes
`, HostPlaceholder, HostPlaceholder, UserPlaceholder, esc(configPath(keyPath, home)))
}

// configPath writes the key path as ssh_config reads it: ~/… under home;
// a path with spaces in quotes.
func configPath(p, home string) string {
	p = TildePath(p, home)
	if strings.ContainsAny(p, " \t") {
		return `"` + p + `"`
	}
	return p
}

// AgentCommand is how the key goes into the agent on goos, as a command to
// copy; pret shows it and never runs it.
func AgentCommand(keyPath, home, goos string) string {
	switch goos {
	case "darwin":
		return "ssh-add --apple-use-keychain " + shellPath(TildePath(keyPath, home))
	case "windows":
		// PowerShell passes ~ to ssh-add as it is: the full path is safer.
		return `Get-Service ssh-agent | Set-Service -StartupType Automatic ; Start-Service ssh-agent ; ssh-add "` + keyPath + `"`
	}
	return "ssh-add " + shellPath(TildePath(keyPath, home))
}

// shellPath quotes a path for a POSIX shell when it needs it, keeping a
// leading ~/ outside the quotes so the shell still expands it.
func shellPath(p string) string {
	if !strings.ContainsAny(p, " \t'\"$`\\!*?[]{}();&|<>#") {
		return p
	}
	prefix := ""
	if strings.HasPrefix(p, "~/") {
		prefix, p = "~/", p[2:]
	}
	return prefix + "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}

// channelOr is how to ask for the account, as the organisers said; when
// blank, never "( )" on screen.
func channelOr(channel string) string {
	if strings.TrimSpace(channel) == "" {
		return "par le canal indiqué par les organisateurs"
	}
	return channel
}

func daysUntil(s Session, today time.Time) int { return int(s.Day.Sub(today).Hours() / 24) }

// DaysLeft says how far the session is, in French.
func DaysLeft(s Session, today time.Time) string {
	switch days := daysUntil(s, today); {
	case days > 1:
		return fmt.Sprintf("Il reste %d jours avant la séance du %s.", days, dates.Long(s.Day))
	case days == 1:
		return fmt.Sprintf("La séance a lieu demain, %s.", dates.Long(s.Day))
	case days == 0:
		return "La séance a lieu aujourd'hui."
	}
	return "La séance est passée ; la clé et acces.md servent pour la prochaine."
}

// Next is what the last screen needs.
type Next struct {
	// AccessFile is the acces.md to send; empty when there is none yet
	// (the account is not requested).
	AccessFile string
	// Declared is the declaration just noted when the learner kept an
	// acces.md that does not state it: the screen gives the one command
	// that rewrites the file with it.
	Declared *Declaration
	Channel  string
	Store    keys.Store
	Home     string
	GOOS     string
	Session  Session
	Today    time.Time
}

// NextSteps is the last screen of the wizard and of `pret verifier`: what
// to send and to whom, the agent, the ~/.ssh/config block, the days left,
// each as a command to copy. Every string from the configuration, the
// environment or a path (the channel, acces.md, the key) is escaped
// (checklist.Escape: controls and bidi marks alike).
func NextSteps(n Next) string {
	var b strings.Builder
	b.WriteString("Et maintenant :\n")
	channel := channelOr(n.Channel)
	if n.AccessFile == "" {
		fmt.Fprintf(&b, "1. Demandez le compte d'accès %s, une seule fois ; puis notez la date et écrivez acces.md :\n     pret acces --statut demande --date AAAA-MM-JJ\n", esc(channel))
	} else {
		fmt.Fprintf(&b, "1. Envoyez acces.md aux organisateurs (%s) :\n     %s\n", esc(channel), esc(n.AccessFile))
		if d := n.Declared; d != nil {
			b.WriteString("   Relisez-le d'abord : vous l'avez gardé tel quel, et il n'indique pas la déclaration notée à l'instant.\n")
			fmt.Fprintf(&b, "   Pour le réécrire avec elle :\n     pret acces --statut %s --date %s --force\n", d.Status, d.Date.Format(dates.ISO))
		}
	}
	b.WriteString("   Le .pub ne s'envoie que si les organisateurs le demandent ; sa ligne (publique) :\n     pret cle --publique\n")
	b.WriteString("2. Chargez la clé dans l'agent SSH, pour taper la passphrase une fois par jour (pret ne le fait pas) :\n")
	fmt.Fprintf(&b, "     %s\n", esc(AgentCommand(n.Store.PrivatePath(), n.Home, n.GOOS)))
	b.WriteString("3. Ajoutez ce bloc à ~/.ssh/config (« pret ssh-config » l'affiche ; pret n'écrit jamais ce fichier) :\n")
	// The very block `pret ssh-config` prints, at the left margin so that
	// it copies as it is; a narrow terminal wraps its comment line as
	// comment lines (textwrap), so the copy stays one ssh_config reads.
	b.WriteString(SSHConfig(n.Store.PrivatePath(), n.Home))
	fmt.Fprintf(&b, "   Remplacez %s et %s par ce que les organisateurs vous donneront.\n", HostPlaceholder, UserPlaceholder)
	fmt.Fprintf(&b, "4. %s\n", DaysLeft(n.Session, n.Today))
	return b.String()
}
