package checklist

import (
	"fmt"
	"slices"

	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/keys/leak"
)

type CodeInfo struct {
	Code     string
	Severity Severity
	Label    string
	Detail   string // SARIF's fullDescription
	Help     string // SARIF's help
}

const leakIncident = "cette clé est compromise : demandez une nouvelle clé"

// Codes: acces-md.md, organisateurs.md, signature.md, in their order.
var Codes = []CodeInfo{
	{"missing-date", SevError, "Aucune date de demande ou de vérification du compte", "Le fichier ne donne ni la date de la demande de compte ni celle de la vérification du compte.", "Demandez à l'apprenant d'écrire la date de sa demande (AAAA-MM-JJ)."},
	{"bad-date", SevError, "Date qui n'existe pas dans le calendrier", "La date donnée n'existe pas (un 31 avril, un 30 février…).", "Demandez à l'apprenant de corriger la date."},
	{"future-date", SevError, "Date dans le futur", "La date de la demande ou de la vérification est postérieure au jour de la validation.", "Demandez à l'apprenant la date réelle de sa demande."},
	{"late-request", SevWarning, "Demande le jour de la séance ou après", "La demande de compte date du jour de la séance ou d'après : le compte risque de ne pas être prêt.", "Prévenez l'apprenant et l'équipe qui crée les comptes."},
	{"missing-pubkey-path", SevError, "Aucun chemin de clé publique", "Le fichier n'indique pas le chemin de la clé publique.", "Demandez à l'apprenant d'indiquer le chemin de sa clé publique (…/id_ed25519_romeo.pub)."},
	{"private-key-path", SevError, "Chemin de la clé privée au lieu de la clé publique", "Le chemin indiqué est celui de la clé privée, pas celui de la clé publique (.pub).", "Demandez à l'apprenant d'indiquer le fichier .pub ; la clé privée ne se donne jamais."},
	{"unexpected-key-name", SevWarning, "Clé publique d'un autre nom que celui de la séance", "La clé publique ne porte pas le nom prévu pour la séance.", "Vérifiez avec l'apprenant que c'est bien la clé de la séance."},
	{"missing-fingerprint", SevError, "Aucune empreinte SHA256", "Le fichier ne donne pas l'empreinte SHA256 de la clé.", "Demandez à l'apprenant de recopier la sortie de « ssh-keygen -lf » sur sa clé publique."},
	{"bad-fingerprint", SevError, "Empreinte mal formée ou MD5", "L'empreinte n'est pas une empreinte SHA256 bien formée (ou c'est une empreinte MD5).", "Demandez à l'apprenant de recopier l'empreinte SHA256 donnée par « ssh-keygen -lf »."},
	{"multiple-fingerprints", SevError, "Plusieurs empreintes différentes", "Le fichier donne plusieurs empreintes différentes : on ne sait pas laquelle est la bonne.", "Demandez à l'apprenant de ne garder que l'empreinte de sa clé."},
	{"wrong-type", SevError, "Type de clé autre qu'ed25519", "Le type de clé indiqué n'est pas ed25519.", "Demandez à l'apprenant de créer une clé ed25519."},
	{"missing-type", SevError, "Type de clé non indiqué", "Le fichier n'indique pas le type de la clé.", "Demandez à l'apprenant de recopier la ligne entière de « ssh-keygen -lf », type compris."},
	{"bad-key-type", SevError, "Clé d'un autre type que celui indiqué", "Le fichier indique une clé ed25519, mais la clé publique à côté ou collée, ou la clé qui l'a signé, est d'un autre type.", "Demandez à l'apprenant de donner et de signer avec sa clé ed25519."},
	{"altered-sentence", SevError, "Phrase d'engagement modifiée", "La phrase d'engagement est là, mais un mot a été changé, retiré ou ajouté.", "Demandez à l'apprenant de recopier la phrase telle quelle, seule dans son paragraphe."},
	{"missing-sentence", SevError, "Phrase d'engagement absente", "Le fichier ne contient pas la phrase d'engagement.", "Demandez à l'apprenant de recopier la phrase d'engagement."},
	{"private-key-leak", SevError, "Clé privée dans le fichier", "Le fichier contient une clé privée : quiconque l'a lu peut se connecter à la place de l'apprenant.", "Incident : cette clé est compromise : demandez une nouvelle clé, et supprimez ce fichier des rendus."},
	{"fingerprint-mismatch", SevError, "Empreinte différente de celle de la clé publique", "L'empreinte indiquée n'est pas celle de la clé publique collée ou posée à côté du fichier.", "Demandez à l'apprenant quelle clé est la bonne, et de recopier son empreinte."},
	{"bad-public-key", SevWarning, "Clé publique illisible", "Une clé publique collée dans le fichier, ou posée à côté, ne se lit pas.", "Demandez à l'apprenant de redonner sa clé publique, sans la modifier."},
	{"duplicate-fingerprint", SevError, "Même empreinte chez plusieurs apprenants", "La même empreinte figure chez plusieurs apprenants : deux personnes ne partagent pas une clé.", "Demandez à chacun sa propre clé ; une copie du fichier d'un autre est possible."},
	{"unreadable", SevError, "Fichier ou dossier illisible", "Le fichier ou le dossier n'a pas pu être lu.", "Vérifiez les droits et le téléchargement, puis relancez la validation."},
	{"too-large", SevError, "Fichier trop grand pour une page", "Le fichier dépasse 16 Kio (ou une ligne ouvre plus de 16 citations ou listes) : il n'est pas lu comme une page Markdown, seulement pour y chercher une clé privée ; au-delà de 1 Mio, il n'est pas lu du tout.", "Demandez à l'apprenant un acces.md d'une page."},
	{"not-text", SevError, "Pas un fichier texte UTF-8", "Le fichier n'est pas du texte UTF-8 (un octet nul ou un autre encodage).", "Demandez à l'apprenant d'enregistrer le fichier en texte UTF-8."},
	{"no-acces-md", SevError, "Aucun acces.md lisible dans le rendu", "Le rendu Moodle ne contient pas d'acces.md lisible (un autre fichier a été envoyé).", "Demandez à l'apprenant de rendre un fichier acces.md en texte."},
	{"no-submission", SevError, "Aucun rendu", "L'apprenant est inscrit mais n'a rien rendu.", "Écrivez à l'apprenant."},
	{"unsigned", SevError, "Rendu sans signature valide", "Le fichier n'est pas signé, alors que la signature est exigée.", "Demandez à l'apprenant de signer son fichier avec « pret signer »."},
	{"bad-signature", SevError, "Signature fausse", "La signature ne correspond pas au fichier : il a été modifié après la signature, ou elle est mal formée.", "Demandez à l'apprenant de signer de nouveau son fichier avec « pret signer »."},
	{"signature-key-mismatch", SevError, "Signature faite avec une autre clé", "Le fichier est signé avec une autre clé que celle dont il donne l'empreinte.", "Demandez à l'apprenant de signer avec la clé dont il donne l'empreinte."},
}

func codeInfo(code string, severity Severity) CodeInfo {
	if i := slices.IndexFunc(Codes, func(c CodeInfo) bool { return c.Code == code }); i >= 0 {
		return Codes[i]
	}
	return CodeInfo{code, severity, code, code, code}
}

// LeakProblem names the lines, never quotes them.
func LeakProblem(lines []int) Problem {
	return Problem{Code: "private-key-leak", Severity: SevError, Line: lines[0],
		Message: fmt.Sprintf("clé privée dans le fichier (%s) : supprimez ces lignes, et considérez cette clé comme compromise : créez-en une nouvelle", termtext.LineRanges(lines))}
}

// Guard: every reader of a file pret may quote parses what it returns.
func Guard(data []byte) ([]byte, []Problem) {
	red, lines := leak.Redact(string(data))
	if len(lines) == 0 {
		return data, nil
	}
	return []byte(red), []Problem{LeakProblem(lines)}
}
