package leak

import (
	"slices"
	"strings"
	"testing"
)

// vectors are hand-written texts and the lines that are key material in
// them: the shapes keys arrive in (hostile), and the honest text around
// them that must never be taken for one. The bodies are cut short: the
// detector reads the start of a body, not its end.
var vectors = []struct {
	name, text string
	want       []int
}{
	// Markers, whatever mail, editors and Markdown did to them.
	{"openssh block", "x\n-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\nBBBB\n-----END OPENSSH PRIVATE KEY-----\ny\n", []int{2, 3, 4, 5}},
	{"lower case", "-----begin openssh private key-----\nAAAA\n-----end openssh private key-----\n", []int{1, 2, 3}},
	{"mixed case", "-----BeGiN rSa PrIvAtE kEy-----\nAAAA\n-----eNd RsA pRiVaTe KeY-----\n", []int{1, 2, 3}},
	{"no-break spaces", "-----BEGIN\u00a0RSA\u00a0PRIVATE\u00a0KEY-----\nAAAA\n-----END\u202fRSA\u202fPRIVATE\u202fKEY-----\n", []int{1, 2, 3}},
	{"tabs and doubled spaces", "-----BEGIN\tEC  PRIVATE\tKEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n", []int{1, 2, 3}},
	{"zero-width and soft hyphen", "-----BEGIN OPEN\u200bSSH PRI\u00adVATE KEY-----\nAAAA\n", []int{1, 2}},
	{"pkcs8", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", []int{1, 2, 3}},
	{"encrypted pkcs8", "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n", []int{1, 2, 3}},
	{"dsa", "-----BEGIN DSA PRIVATE KEY-----\nAAAA\n-----END DSA PRIVATE KEY-----\n", []int{1, 2, 3}},
	// A header named in prose, or alone, takes no honest line after it
	// (third outside tester, stop 27).
	{"mention in prose", "Attention : ne jamais coller le bloc -----BEGIN OPENSSH PRIVATE KEY----- dans ce fichier.\n\nDate : 20/10/2026\n", []int{1}},
	{"mention in a script", "# rappel : la clé (-----BEGIN OPENSSH PRIVATE KEY-----) ne va jamais dans un script\nhostname\nsleep 30\n", []int{1}},
	{"label after a header", "-----BEGIN OPENSSH PRIVATE KEY-----\n\nDate de la demande : 2026-10-20\n", []int{1}},
	{"pgp", "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\nlQOYBF\n=Ab12\n-----END PGP PRIVATE KEY BLOCK-----\n", []int{1, 2, 3, 4, 5, 6}},
	{"ssh2", "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: \"rsa-key-20261020\"\nP2/56wAAAi\n---- END SSH2 ENCRYPTED PRIVATE KEY ----\n", []int{1, 2, 3, 4}},
	{"quoted", "Bonjour,\n> -----BEGIN OPENSSH PRIVATE KEY-----\n> AAAA\n>\n> BBBB\n> -----END OPENSSH PRIVATE KEY-----\n> Merci\n", []int{2, 3, 4, 5, 6}},
	{"quoted twice", ">> -----BEGIN OPENSSH PRIVATE KEY-----\n> > AAAA\n>> -----END OPENSSH PRIVATE KEY-----\n", []int{1, 2, 3}},
	{"list items", "- -----BEGIN EC PRIVATE KEY-----\n- AAAA\n* BBBB\n1. CCCC\n- -----END EC PRIVATE KEY-----\n- fin\n", []int{1, 2, 3, 4, 5}},
	{"table", "| clé |\n|---|\n| -----BEGIN PRIVATE KEY----- |\n| AAAA |\n| -----END PRIVATE KEY----- |\n", []int{3, 4, 5}},
	{"code fence", "```\n-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n```\nfin\n", []int{2, 3, 4}},
	{"code span", "Clé : `-----BEGIN OPENSSH PRIVATE KEY-----`\n`AAAA`\n", []int{1, 2}},
	{"indented", "    -----BEGIN RSA PRIVATE KEY-----\n\tAAAA\n    -----END RSA PRIVATE KEY-----\n", []int{1, 2, 3}},
	{"crlf", "a\r\n-----BEGIN OPENSSH PRIVATE KEY-----\r\nAAAA\r\n-----END OPENSSH PRIVATE KEY-----\r\nb\r\n", []int{2, 3, 4}},
	{"begin cut between words", "x\n-----BEGIN OPENSSH\nPRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n", []int{2, 3, 4, 5}},
	{"begin cut after PRIVATE", "-----BEGIN RSA PRIVATE\nKEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n", []int{1, 2, 3, 4}},
	{"begin cut, blank between", "-----BEGIN\n\nOPENSSH PRIVATE KEY-----\nAAAA\n", []int{1, 2, 3, 4}},
	{"end cut", "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH\nPRIVATE KEY-----\nfin\n", []int{1, 2, 3, 4}},
	{"dashes on their own line", "-----\nBEGIN RSA PRIVATE KEY-----\nAAAA\n-----\nEND RSA PRIVATE KEY-----\nfin\n", []int{2, 3, 4, 5}},
	{"whole key on one line", "clé : -----BEGIN OPENSSH PRIVATE KEY----- AAAA BBBB -----END OPENSSH PRIVATE KEY-----\nfin\n", []int{1}},
	{"begin without end", "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\nBBBB\n\nMerci.\n", []int{1, 2, 3}},
	{"end without begin", "Texte libre.\nQk1XcmFuZG9tYm9keQ==\n-----END RSA PRIVATE KEY-----\n", []int{2, 3}},
	{"end without begin, blank lines", "Texte.\nAAAA\n\nBBBB\n\n-----END PRIVATE KEY-----\n", []int{2, 3, 4, 5, 6}},
	{"legacy encrypted", "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0123ABCD\n\nAAAA\n-----END RSA PRIVATE KEY-----\n", []int{1, 2, 3, 4, 5, 6}},
	{"legacy encrypted without markers", "Voici :\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0123ABCD\n\nAAAA\nBBBB\nfin.\n", []int{2, 3, 4, 5, 6}},
	{"re-spaced body", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNz aC1rZXktdjEAAAAA\nAAAAAAAA\u00a0AAAAAAAA\n-----END OPENSSH PRIVATE KEY-----\n", []int{1, 2, 3, 4}},

	// PuTTY.
	{"putty", "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: kim\nPublic-Lines: 1\nAAAA\nPrivate-Lines: 1\nAAAB\nPrivate-MAC: 00ff\nfin\n", []int{1, 2, 3, 4, 5, 6, 7, 8}},
	{"putty blank lines", "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\n\nPublic-Lines: 1\nAAAA\n\nPrivate-Lines: 1\nAAAB\nPrivate-MAC: 00\nfin\n", []int{1, 2, 3, 4, 5, 6, 7, 8, 9}},
	{"putty v3 encrypted", "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: aes256-cbc\nComment: kim\nPublic-Lines: 1\nAAAA\nKey-Derivation: Argon2id\nArgon2-Memory: 8192\nArgon2-Passes: 13\nArgon2-Parallelism: 1\nArgon2-Salt: 0123\nPrivate-Lines: 1\nAAAB\nPrivate-MAC: 00\n", []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}},
	{"putty without first line", "Texte\n\nEncryption: none\nComment: kim\nPublic-Lines: 1\nAAAA\nPrivate-Lines: 1\nAAAB\nPrivate-MAC: 00\n", []int{3, 4, 5, 6, 7, 8, 9}},
	{"putty private lines alone", "Texte\n\nPrivate-Lines: 1\nAAAAIHx0\nPrivate-MAC: 00ff\n", []int{3, 4, 5}},
	{"putty without MAC", "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nPublic-Lines: 1\nAAAA\nPrivate-Lines: 1\nAAAB\n\nMerci.\n", []int{1, 2, 3, 4, 5, 6}},
	{"putty public part only", "Encryption: none\nComment: kim\nPublic-Lines: 1\nAAAA\n", nil},

	// Bodies without their BEGIN line.
	{"magic line", "Clé :\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACB\n\nMerci.\n", []int{2, 3}},
	{"magic cut over lines", "x\nb3BlbnNzaC1r\nZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB\nfin de la clé.\n", []int{2, 3}},
	{"magic cut mid-line", "voici b3BlbnNz\naC1rZXktdjEAAAAABG5vbmU texte\n", []int{1, 2}},
	// Hidden from the page, in the file all the same (outside tester).
	{"magic in a hidden element", "x\n<span hidden>b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB</span>\n", []int{2}},
	{"magic in an attribute", "<img alt=\"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB\" src=x.png>\n", []int{1}},
	{"magic in a script", "<p>Voir</p><script>b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ</script>\n", []int{1}},
	// A backslash hard break shows nothing of itself (outside tester).
	{"magic cut by a hard break", "x\nb3BlbnNzaC\\\n1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\\\nAAAAAAAAAB\n", []int{2, 3, 4}},
	// openssl's Private-Key: line opens a key before its numbers only (outside tester).
	{"openssl text", "Clé :\nED25519 Private-Key:\npriv:\n    43:c7:b6:22:6d:0a:27:dc:03:4a:27:f0:8e:3d:16:\n    1e:3b\n", []int{2, 3, 4, 5}},
	{"openssl named in prose", "Je n'ai pas collé la sortie Private-Key: de openssl.\nDate : 2026-10-20\n", nil},
	{"openssl header, no numbers", "Private-Key: (2048 bit, 2 primes)\nmodulus: voir plus haut\npriv:\nvoir le fichier\n", nil},
	// Classic Mac OS line ends (CR alone): an editor shows lines (outside tester).
	{"cr-only lines", "x\rb3BlbnNzaC\\\r1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\\\rAAAAAAAAAB\r", []int{2, 3, 4}},
	{"cr-only openssh block", "Date : 2026-10-20\r-----BEGIN OPENSSH PRIVATE KEY-----\rAAAA\r-----END OPENSSH PRIVATE KEY-----\rfin\r", []int{2, 3, 4}},
	{"magic a character a line", "b\n3\nB\nl\nb\nn\nN\nz\na\nC\n\n1\nr\nZ\nX\nk\nt\nd\nj\nE\nA\nfin.\n", []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}},
	{"magic in a script", "#!/bin/sh\necho \"b3BlbnNzaC1rZXktdjEAAAAABG5vbmU\" > cle\n", []int{2}},
	{"magic re-spaced", "b3Bl bnNz aC1r ZXkt djEA AAAA\n", []int{1}},
	{"pkcs1 body", "Clé :\nMIIEowIBAAKCAQEAq1w2e3r4t5y6u7i8o9p0\nAbCdEfGh\nfin.\n", []int{2, 3}},
	{"pkcs1 body a character a line", "M\nI\nI\nE\n\no\nw\nI\nB\nA\nA\nK\nC\nA\nQ\nE\nA\n", []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}},
	{"sec1 body", "MHcCAQEEIBx1Ew7TmvYV7OqFjBvXbQ8aPmz3HUbL9u4kOMm8oQkCoAoGCCqGSM49\n", []int{1}},
	{"pkcs8 ed25519 in a config value", "seance:\n  debut: MC4CAQAwBQYDK2VwBCIEIK7eBvYw0Ct6lW4YfQnLBzRzqJm1uQw9tS8G2ZxJpH1F\n", []int{2}},
	{"pkcs8 after an equals sign", "#SBATCH --comment=MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ\n", []int{1}},
	{"encrypted pkcs8 body", "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI\n", []int{1}},
	{"dsa body", "MIIBuwIBAAKBgQDxyz0abcd\n", []int{1}},

	// Honest text: none of it is a key.
	{"empty", "", nil},
	{"prose", "Clé privée : jamais partagée.\nConnexion uniquement vers le nœud de login.\n", nil},
	{"words with END and BEGIN", "Vendredi, le calendrier : attendre.\nBegin again.\nEnd of story\n", nil},
	{"short lines of letters", "Merci pour tout\nTout sera fait pour vous\nAAAA\nMerci\n", nil},
	{"fingerprint", "- 256 SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU kim@portable (ED25519)\nSHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU\n", nil},
	{"md5 fingerprint", "- 256 MD5:3b:1f:92:0c:aa:71:5e:e4:09:6d:8b:2f:44:c1:7e:05 seance-novembre (ED25519)\n", nil},
	{"hex digest", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n", nil},
	{"public key line", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl kim@portable\n", nil},
	{"public key PEM", "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n", nil},
	{"public key DER without markers", "MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n", nil},
	{"rsa public key DER", "MIIBCgKCAQEAq1w2e3r4t5y6u7i8o9p0AbCdEfGh\n", nil},
	{"certificate DER", "MIIBkTCB+wIJAKHHIG11yZdEMA0GCSqGSIb3DQEBCwUAMA0x\n", nil},
	{"signature armour", "a\n-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQAAADMAAAALc3NoLWVk\n-----END SSH SIGNATURE-----\n", nil},
	{"signature marker and fence", "<!-- pret:signature -->\n```\n-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAgx9uE6k7m6kq3nHq1vMtAjLr2\nAAAACnByZXQtYWNjZXMAAAAAAAAABnNoYTUxMgAAAFMAAAALc3NoLWVkMjU1MTkAAABA\n-----END SSH SIGNATURE-----\n```\n", nil},
	{"paths and names", "fichier: /tmp/TestDateFormsEverywhereassistant2920261587334294/001/acces.md\n" +
		"cd /tmp/TestDateFormsEverywhereassistantaujourdhui2206868447/001/rendus/Kim\n" +
		"srun /home/kim/ProjetsRomeo/SimulationMeteoGrandeEchelle2026/bin/runAll\n" +
		"export PYTHONPATH=/opt/ROMEO2025/lib/python3.12/sitePackages/monModuleDeCalcul\n", nil},
	{"base64 runs", "jeton : Zm9vYmFyYmF6cXV4cXV1eFlvV0xrd0pYcEZzSzl3Q2c0\naB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9f\n" +
		"echo \"q7Hn2KpLw9ZsX4tR8mVbN3cYf6JgD1aEoU5iWxT0yQzB7hSdF2rGkPvLe9MnC4u\"\n", nil},
	{"an M word", "Mardi, Merci, MIT, M. Martin\nM\n", nil},
	{"markers of other blocks", "-----BEGIN CERTIFICATE-----\nMIIBkTCB+wIJAKHHIG11yZdEMA0GCSqGSIb3DQEBCwUAMA0x\n-----END CERTIFICATE-----\n-----BEGIN OPENSSH CERTIFICATE-----\n", nil},
	{"horizontal rules", "Titre\n---\ntexte\n-----\n", nil},
	{"a colon line", "Date: 2026-10-16\nComment: bien reçu\n", nil},

	// A key among honest lines: only its lines.
	{"key in a signed file", "- Date de la demande : 2026-10-16\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n\n<!-- pret:signature -->\n```\n-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQAAADMAAAALc3NoLWVk\n-----END SSH SIGNATURE-----\n```\n", []int{2, 3, 4}},
	{"key body inside a signature armour", "-----BEGIN SSH SIGNATURE-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAA\n-----END SSH SIGNATURE-----\n", []int{2, 3}},
}

func TestVectors(t *testing.T) {
	for _, v := range vectors {
		if got := Lines(v.text); !slices.Equal(got, v.want) {
			t.Errorf("%s: got %v, want %v\n%s", v.name, got, v.want, v.text)
		}
		if got := Has(v.text); got != (len(v.want) > 0) {
			t.Errorf("%s: Has = %v", v.name, got)
		}
	}
}

// TestRealisticPages: acces.md pages as organisers receive them by the
// hundred hold no key, each of their lines dressed in every way.
func TestRealisticPages(t *testing.T) {
	dress := []func(string) string{
		func(s string) string { return s },
		strings.ToUpper,
		strings.ToLower,
		func(s string) string { return "> " + s },
		func(s string) string { return "- " + s },
		func(s string) string { return "| " + s + " |" },
		func(s string) string { return "`" + s + "`" },
		func(s string) string { return strings.ReplaceAll(s, " ", "\u00a0") },
		func(s string) string { return strings.ReplaceAll(s, " ", "") },
	}
	for _, p := range realisticPages {
		lines := strings.Split(p, "\n")
		for _, d := range dress {
			for k := range lines {
				l := slices.Clone(lines)
				l[k] = d(l[k])
				if got := Lines(strings.Join(l, "\n")); got != nil {
					t.Fatalf("line %d of a page reported: %v\n%s", k+1, got, strings.Join(l, "\n"))
				}
			}
		}
	}
}

// realisticPages: the scale shape (whole and cut), pret's template, pages
// written by hand, a wrong fingerprint, a pasted public key, a table with
// CRLF, a numbered list, a signed page.
var realisticPages = []string{
	"- Date de la demande : 2026-10-16\n- Clé : ~/.ssh/id_ed25519_romeo.pub\n- 256 SHA256:PhvlBqQ0BWk2rA6AP0ID48IU2c08WWaUZK1z5JuKf0A seance-novembre (ED25519)\n\nConnexion uniquement vers le nœud de login indiqué par les organisateurs.\n",
	"- Date de la demande : 2026-10-16\n- Clé : ~/.ssh/id_ed25519_romeo.pub\n- 256 SHA256:i+WolKwKJGO19QQBoizhn/V5llBBetk0X07p+hEnUGo seance-novembre (ED25519)\n\nConnexion uniquement vers le nœud d",
	"# Accès — séance du jeudi 5 novembre 2026, 9h30–12h\n\n- Date de la demande du compte d'accès : 2026-10-16\n- Chemin de la clé publique : `/home/kim/.ssh/id_ed25519_romeo.pub`\n- Empreinte et type : `256 SHA256:e5eV2dbJuZWp9bD1dJ4//42i4oaQUxlDKI+67P1iEBQ seance-novembre (ED25519)`\n\n> Connexion uniquement vers le nœud de login indiqué par les organisateurs.\n",
	"Mon compte existait déjà : vérifié ouvert le 23/10/2026.\nClé : ~/.ssh/id_ed25519_romeo.pub\nC'est une clé ED25519, empreinte SHA256:tc1+NYFSoUoasBV8ZJu5X3dK6V3ESg7kOqqgMRKY8gI.\n\nconnexion uniquement vers le noeud de login indiqué par les organisateurs\n",
	"- Date de la demande : 2026-10-16\n- Clé : ~/.ssh/id_ed25519_romeo.pub\n- 256 MD5:3b:1f:92:0c:aa:71:5e:e4:09:6d:8b:2f:44:c1:7e:05 seance-novembre (ED25519)\n\nConnexion uniquement vers le nœud de login indiqué par les organisateurs.\n",
	"| Date | 2026-10-16 |\n|---|---|\n| Clé | ~/.ssh/id_ed25519_romeo.pub |\n| Empreinte | SHA256:bdWv8ASnIXvq7nulAWpJBvplTofkQJ55TUUjbQO+nA0 |\n| Type | ED25519 |\n",
	"# Accès\r\n\r\n| Élément | Valeur |\r\n|---|---|\r\n| Date de la demande | 2026-10-12 |\r\n| Clé | `C:\\Users\\kim\\.ssh\\id_ed25519_romeo.pub` |\r\n| Empreinte | `256 SHA256:tc1+NYFSoUoasBV8ZJu5X3dK6V3ESg7kOqqgMRKY8gI kim@portable (ED25519)` |\r\n\r\n> « Connexion uniquement vers le nœud de login indiqué par les organisateurs. »\r\n",
	"Demande faite le mardi 20 octobre 2026.\n\n1. Clé publique : `$HOME/.ssh/id_ed25519_romeo.pub`\n2. Type ed25519, empreinte SHA256:bdWv8ASnIXvq7nulAWpJBvplTofkQJ55TUUjbQO+nA0\n\n**Connexion uniquement vers le nœud de login indiqué par les organisateurs.**\n",
	"- Date de la demande : 2026-10-16\n- Clé : ~/.ssh/id_ed25519_romeo.pub\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl kim@portable\n\nConnexion uniquement vers le nœud de login indiqué par les organisateurs.\n",
	onePage,
}
