package checklist

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// yamlReasons: go-yaml v2 and v3 messages; the first match wins.
var yamlReasons = [][2]string{
	{"mapping values are not allowed", "« : » inattendu : une valeur qui contient « : » s'écrit entre guillemets, ou l'indentation est décalée"},
	{"found character that cannot start any token", "caractère qui ne peut pas commencer une valeur (une tabulation ? YAML n'indente qu'avec des espaces)"},
	{"did not find expected key", "clé attendue : l'indentation est sans doute décalée"},
	{"did not find expected '-' indicator", "élément de liste attendu (« - ») : l'indentation est sans doute décalée"},
	{"did not find expected ',' or ']'", "liste entre crochets non fermée (« ] » manquant)"},
	{"did not find expected ',' or '}'", "objet entre accolades non fermé (« } » manquant)"},
	{"did not find expected node content", "valeur attendue"},
	{"could not find expected ':'", "« : » attendu après une clé"},
	{"found unexpected end of stream", "fin du fichier inattendue : un guillemet n'est pas fermé ?"},
	{"found undefined tag handle", "étiquette YAML (« ! ») inconnue"},
	{"block sequence entries are not allowed", "liste mal placée : l'indentation est sans doute décalée"},
	{"already set in map", "clé en double"},
	{"control characters are not allowed", "caractère de contrôle dans le fichier"},
	{"found unknown escape character", "séquence d'échappement inconnue après « \\ » dans une chaîne entre guillemets"},
	{"found unexpected ':'", "« : » inattendu"},
	{"did not find URI escaped octet", "étiquette YAML mal formée"},
	{"exceeded max depth", "imbrication trop profonde"},
	{"document contains excessive aliasing", "trop d'alias (« * ») : le document se déplierait sans fin"},
	{"unknown anchor", "alias (« * ») vers une ancre (« & ») inconnue"},
	{"found duplicate", "clé en double"},
	{"already defined", "clé en double"},
	{"invalid base64", "valeur !!binary qui n'est pas du base64"},
	{"did not find expected", "structure inattendue : vérifiez les retraits, les crochets et les guillemets"},
	{"UTF-8", "le fichier n'est pas en UTF-8"},
	{"tab", "tabulation dans l'indentation : YAML n'indente qu'avec des espaces"},
}

var yamlLineRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+)`) })

// yamlDuplicateRe is go-yaml v2's key given twice: its line is where the
// second value starts, the line after the key for a section.
var yamlDuplicateRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`line (\d+): key ("(?:[^"\\]|\\.)*") already set in map`)
})

// YAMLError: "ligne 3 : clé en double", for the syntax errors of go-yaml;
// the type errors of a Job are jobapi's, in French already.
func YAMLError(err error) string {
	msg := err.Error()
	if m := yamlDuplicateRe().FindStringSubmatch(msg); m != nil {
		if key, err := strconv.Unquote(m[2]); err == nil {
			return "clé « " + key + " » en double : sa seconde valeur commence à la ligne " + m[1]
		}
	}
	reason := "syntaxe invalide"
	for _, r := range yamlReasons {
		if strings.Contains(msg, r[0]) {
			reason = r[1]
			break
		}
	}
	if m := yamlLineRe().FindStringSubmatch(msg); m != nil && m[1] != "0" {
		return "ligne " + m[1] + " : " + reason
	}
	return reason
}
