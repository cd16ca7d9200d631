package keys

import "testing"

// realisticPages are acces.md pages as organisers receive them by the
// hundred: the scale shape (whole and cut), pret's template, pages
// written by hand, a wrong fingerprint, a pasted public key.
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
}

// BenchmarkMaterialMaskPages: the detector on one realistic page, as
// readLines calls it (with its line offsets).
// go test ./keys -run '^$' -bench MaterialMaskPages -benchmem
func BenchmarkMaterialMaskPages(b *testing.B) {
	starts := make([][]int32, len(realisticPages))
	for i, p := range realisticPages {
		starts[i] = lineStarts(p)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		k := i % len(realisticPages)
		MaterialMaskAt(realisticPages[k], starts[k])
	}
}

// BenchmarkOldMaterialMaskPages is the oracle on the same pages: the
// figure before the fast path, measured under the same load.
func BenchmarkOldMaterialMaskPages(b *testing.B) {
	starts := make([][]int32, len(realisticPages))
	for i, p := range realisticPages {
		starts[i] = lineStarts(p)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		k := i % len(realisticPages)
		oldMaterialMaskAt(realisticPages[k], starts[k])
	}
}
