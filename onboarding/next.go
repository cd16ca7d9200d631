package onboarding

import (
	"fmt"
	"strings"
	"time"

	"github.com/romeo-pret/pret/internal/dates"
	"github.com/romeo-pret/pret/keys"
)

// Placeholders of the ~/.ssh/config block: pret never guesses the login host.
const (
	HostPlaceholder = "NOEUD-DE-LOGIN"
	UserPlaceholder = "VOTRE-IDENTIFIANT"
)

// SSHConfig is the ~/.ssh/config block of apprenant.md, printed, never written.
func SSHConfig(keyPath, home string) string {
	p := strings.ReplaceAll(TildePath(keyPath, home), "%", "%%") // ssh_config expands %d, %u… in it
	if strings.ContainsAny(p, " \t\"'\\") {                      // unquoted, ssh reads \\ as \
		// Quoted as ssh_config reads a word: inside quotes, \ and " are escaped.
		p = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(p) + `"`
	}
	return fmt.Sprintf(`# Séance ROMEO — remplacez %s par le nom donné par les organisateurs
Host romeo
    HostName %s
    User %s
    IdentityFile %s
    IdentitiesOnly yes
`, HostPlaceholder, HostPlaceholder, UserPlaceholder, esc(p))
}

// AgentCommand puts the key into the agent on goos: shown, never run.
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

// shellPath quotes a path for a POSIX shell, a leading ~/ left outside.
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

// channelOr is how to ask for the account; never "( )" when blank.
func channelOr(channel string) string {
	if strings.TrimSpace(channel) == "" {
		return "par le canal indiqué par les organisateurs"
	}
	return channel
}

// DaysLeft says how far the session is.
func DaysLeft(s Session, today time.Time) string {
	switch days := int(s.Day.Sub(today).Hours() / 24); {
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
	AccessFile string // the acces.md to send; empty before the request
	// Declared: just noted, not in the kept acces.md; the screen says how to rewrite it.
	Declared *Declaration
	Channel  string
	Store    keys.Store
	Home     string
	GOOS     string
	Session  Session
	Today    time.Time
}

// NextSteps is the last screen of the wizard and of `pret verifier`.
func NextSteps(n Next) string {
	var b strings.Builder
	b.WriteString("Et maintenant :\n")
	channel := channelOr(n.Channel)
	if n.AccessFile == "" {
		fmt.Fprintf(&b, "1. Demandez le compte d'accès %s, une seule fois ; puis notez la date et écrivez acces.md :\n     pret acces --statut demande --date AAAA-MM-JJ\n", esc(channel))
	} else {
		how := "(" + esc(channel) + ")"
		if strings.TrimSpace(n.Channel) == "" {
			how = "par le canal qu'ils ont indiqué" // not « les organisateurs » twice
		}
		fmt.Fprintf(&b, "1. Envoyez acces.md aux organisateurs %s :\n     %s\n", how, esc(n.AccessFile))
		if d := n.Declared; d != nil {
			b.WriteString("   Relisez-le d'abord : vous l'avez gardé tel quel, et il n'indique pas la déclaration notée à l'instant.\n")
			fmt.Fprintf(&b, "   Pour le réécrire avec elle :\n     pret acces --statut %s --date %s --force\n", d.Status, d.Date.Format(dates.ISO))
		}
	}
	b.WriteString("   Le .pub ne s'envoie que si les organisateurs le demandent ; sa ligne (publique) :\n     pret cle --publique\n")
	b.WriteString("2. Chargez la clé dans l'agent SSH, pour taper la passphrase une fois par jour (pret ne le fait pas) :\n")
	fmt.Fprintf(&b, "     %s\n", esc(AgentCommand(n.Store.PrivatePath(), n.Home, n.GOOS)))
	b.WriteString("3. Ajoutez ce bloc à ~/.ssh/config (« pret ssh-config » l'affiche ; pret n'écrit jamais ce fichier) :\n")
	// At the left margin, to copy as it is (textwrap keeps comments).
	b.WriteString(SSHConfig(n.Store.PrivatePath(), n.Home))
	fmt.Fprintf(&b, "   Remplacez %s et %s par ce que les organisateurs vous donneront.\n", HostPlaceholder, UserPlaceholder)
	fmt.Fprintf(&b, "4. %s\n", DaysLeft(n.Session, n.Today))
	return b.String()
}
