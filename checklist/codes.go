package checklist

// CodeInfo describes a problem code of acces-md.md for the reports that
// list rules (SARIF) or explain codes (HTML).
type CodeInfo struct {
	Code        string
	Severity    Severity // default severity
	Description string   // French, one line
}

// Codes are the problem codes of acces-md.md, organisateurs.md and
// signature.md, in the order of the contract.
var Codes = []CodeInfo{
	{"missing-date", SevError, "Aucune date de demande ou de vérification du compte"},
	{"bad-date", SevError, "Date qui n'existe pas dans le calendrier"},
	{"future-date", SevError, "Date dans le futur"},
	{"late-request", SevWarning, "Demande le jour de la séance ou après"},
	{"missing-pubkey-path", SevError, "Aucun chemin de clé publique"},
	{"private-key-path", SevError, "Chemin de la clé privée au lieu de la clé publique"},
	{"unexpected-key-name", SevWarning, "Clé publique d'un autre nom que celui de la séance"},
	{"missing-fingerprint", SevError, "Aucune empreinte SHA256"},
	{"bad-fingerprint", SevError, "Empreinte mal formée ou MD5"},
	{"multiple-fingerprints", SevError, "Plusieurs empreintes différentes"},
	{"wrong-type", SevError, "Type de clé autre qu'ed25519"},
	{"missing-type", SevError, "Type de clé non indiqué"},
	{"altered-sentence", SevError, "Phrase d'engagement modifiée"},
	{"missing-sentence", SevError, "Phrase d'engagement absente"},
	{"private-key-leak", SevError, "Clé privée dans le fichier"},
	{"fingerprint-mismatch", SevError, "Empreinte différente de celle de la clé publique"},
	{"bad-public-key", SevWarning, "Clé publique illisible"},
	{"duplicate-fingerprint", SevError, "Même empreinte chez plusieurs apprenants"},
	{"unreadable", SevError, "Fichier ou dossier illisible"},
	{"too-large", SevError, "Fichier de plus de 1 Mio"},
	{"not-text", SevError, "Pas un fichier texte UTF-8"},
	{"unsigned", SevError, "Rendu sans signature valide"},
	{"bad-signature", SevError, "Signature fausse"},
	{"signature-key-mismatch", SevError, "Signature faite avec une autre clé"},
	{"no-submission", SevError, "Inscrit dans la feuille d'évaluation Moodle, aucun rendu"},
}

// codeInfo finds a code's description; a code this table does not know
// yet is still reported, under its own name.
func codeInfo(code string, severity Severity) CodeInfo {
	for _, c := range Codes {
		if c.Code == code {
			return c
		}
	}
	return CodeInfo{Code: code, Severity: severity, Description: code}
}
