package checklist

import (
	"fmt"
	"slices"

	"github.com/romeo-pret/pret/internal/termtext"
	"github.com/romeo-pret/pret/keys/leak"
)

// Code names one kind of problem. Reports, SARIF rules and the
// organisers' scripts key on its text: a code, once published, keeps it.
type Code string

// The codes, in the order of Codes. A rule names its code by one of these;
// TestCodesRegistered fails on a literal, an unregistered constant or a
// code no page of docs/ explains.
const (
	CodeMissingDate          Code = "missing-date"
	CodeBadDate              Code = "bad-date"
	CodeFutureDate           Code = "future-date"
	CodeLateRequest          Code = "late-request"
	CodeMissingPubkeyPath    Code = "missing-pubkey-path"
	CodePrivateKeyPath       Code = "private-key-path"
	CodeUnexpectedKeyName    Code = "unexpected-key-name"
	CodeMissingFingerprint   Code = "missing-fingerprint"
	CodeBadFingerprint       Code = "bad-fingerprint"
	CodeMultipleFingerprints Code = "multiple-fingerprints"
	CodeWrongType            Code = "wrong-type"
	CodeMissingType          Code = "missing-type"
	CodeBadKeyType           Code = "bad-key-type"
	CodeAlteredSentence      Code = "altered-sentence"
	CodeMissingSentence      Code = "missing-sentence"
	CodePrivateKeyLeak       Code = "private-key-leak"
	CodeFingerprintMismatch  Code = "fingerprint-mismatch"
	CodeBadPublicKey         Code = "bad-public-key"
	CodeDuplicateFingerprint Code = "duplicate-fingerprint"
	CodeUnreadable           Code = "unreadable"
	CodeTooLarge             Code = "too-large"
	CodeNotText              Code = "not-text"
	CodeNoAccesMD            Code = "no-acces-md"
	CodeNoSubmission         Code = "no-submission"
	CodeUnsigned             Code = "unsigned"
	CodeBadSignature         Code = "bad-signature"
	CodeSignatureKeyMismatch Code = "signature-key-mismatch"

	CodeSbatchShebang           Code = "sbatch-shebang"
	CodeSbatchCRLF              Code = "sbatch-crlf"
	CodeSbatchMissingOption     Code = "sbatch-missing-option"
	CodeSbatchWrongValue        Code = "sbatch-wrong-value"
	CodeSbatchSpelling          Code = "sbatch-spelling"
	CodeSbatchIgnoredDirective  Code = "sbatch-ignored-directive"
	CodeSbatchShellVariable     Code = "sbatch-shell-variable"
	CodeSbatchCommands          Code = "sbatch-commands"
	CodeSbatchTimeZero          Code = "sbatch-time-zero"
	CodeSbatchMemConflict       Code = "sbatch-mem-conflict"
	CodeSbatchRefusedDirective  Code = "sbatch-refused-directive"
	CodeSbatchUnrequestedOption Code = "sbatch-unrequested-option"
	CodeSbatchMissing           Code = "sbatch-missing"
	CodeExplicationOrder        Code = "explication-order"
	CodeExplicationMissing      Code = "explication-missing"
	CodeLignesAnswers           Code = "lignes-answers"
	CodeYAMLSyntax              Code = "yaml-syntax"
	CodeYAMLUnknownField        Code = "yaml-unknown-field"
	CodeYAMLSecondDocument      Code = "yaml-second-document"
	CodeJobKind                 Code = "job-kind"
	CodeJobAPIVersion           Code = "job-api-version"
	CodeJobName                 Code = "job-name"
	CodeJobBackoffLimit         Code = "job-backoff-limit"
	CodeJobDeadline             Code = "job-deadline"
	CodeJobRestartPolicy        Code = "job-restart-policy"
	CodeJobCommand              Code = "job-command"
	CodeJobImage                Code = "job-image"
	CodeJobPriorityClass        Code = "job-priority-class"
	CodeJobQueueLabel           Code = "job-queue-label"
	CodeJobSuspend              Code = "job-suspend"
	CodeRefusKueue              Code = "refus-kueue"
	CodeRefusRestart            Code = "refus-restart"
	CodeDecisionScancel         Code = "decision-scancel"
	CodeComparaisonParagraphs   Code = "comparaison-paragraphs"
	CodeComparaisonKueue        Code = "comparaison-kueue"
)

// CodeInfo is everything said about a code, to each reader in turn.
type CodeInfo struct {
	Code     Code
	Severity Severity
	Label    string // the organiser's few words: the report's column, SARIF's name
	Detail   string // what was found, for the organiser: SARIF's fullDescription
	Help     string // what the organiser does: SARIF's help
	Advice   string // what the learner does, « vous »: the worksheet's feedback
	Doc      string // "page.md#anchor" of docs/: the section that explains it
}

const leakIncident = "cette clé est compromise : demandez une nouvelle clé"

// The sections of docs/ that explain the codes.
const (
	docReading   = "acces-md.md#reading-the-text"
	docElements  = "acces-md.md#the-four-elements-seed-il-écrit-accesmd-avec-quatre-éléments"
	docSecrets   = "acces-md.md#secrets-and-cross-checks"
	docFile      = "acces-md.md#the-file-itself"
	docWorksheet = "organisateurs.md#la-feuille-dévaluation-moodle----feuille---feuille-sortie"
	docSignature = "signature.md#checking-one"
	docSbatch    = "livrables.md#sommeilsbatch"
	docExplain   = "livrables.md#explicationmd-or-lignesmd"
	docJob       = "livrables.md#sommeil-jobyaml"
	docAnswers   = "livrables.md#the-written-answers"
)

// Codes: acces-md.md, organisateurs.md, signature.md, livrables.md, in their order.
var Codes = []CodeInfo{
	{CodeMissingDate, SevError, "Aucune date de demande ou de vérification du compte", "Le fichier ne donne ni la date de la demande de compte ni celle de la vérification du compte.", "Demandez à l'apprenant d'écrire la date de sa demande (AAAA-MM-JJ).", "Écrivez la date de votre demande de compte, par exemple « Date de la demande : 2026-10-20 ».", docElements},
	{CodeBadDate, SevError, "Date illisible ou impossible", "La date donnée ne se lit pas comme un jour du calendrier : un mot ou une date relative (« hier »), un jour qui n'existe pas (un 31 avril), un jour de semaine qui n'est pas le sien.", "Demandez à l'apprenant d'écrire le jour lui-même, tel qu'au calendrier.", "Écrivez le jour de votre demande tel qu'au calendrier, par exemple 2026-10-20 : pas « hier », pas un jour qui n'existe pas.", docElements},
	{CodeFutureDate, SevError, "Date dans le futur", "La date de la demande ou de la vérification est postérieure au jour de la validation.", "Demandez à l'apprenant la date réelle de sa demande.", "Écrivez le jour où vous avez fait la demande, aujourd'hui au plus tard.", docElements},
	{CodeLateRequest, SevWarning, "Demande le jour de la séance ou après", "La demande de compte date du jour de la séance ou d'après : le compte risque de ne pas être prêt.", "Prévenez l'apprenant et l'équipe qui crée les comptes.", "Votre compte risque de ne pas être prêt pour la séance : prévenez l'équipe qui crée les comptes.", docElements},
	{CodeMissingPubkeyPath, SevError, "Aucun chemin de clé publique", "Le fichier n'indique pas le chemin de la clé publique.", "Demandez à l'apprenant d'indiquer le chemin de sa clé publique (…/id_ed25519_romeo.pub).", "Indiquez le chemin de votre clé publique, par exemple ~/.ssh/id_ed25519_romeo.pub.", docElements},
	{CodePrivateKeyPath, SevError, "Chemin de la clé privée au lieu de la clé publique", "Le chemin indiqué est celui de la clé privée, pas celui de la clé publique (.pub).", "Demandez à l'apprenant d'indiquer le fichier .pub ; la clé privée ne se donne jamais.", "Indiquez le fichier .pub de votre clé ; la clé privée ne se donne jamais.", docElements},
	{CodeUnexpectedKeyName, SevWarning, "Clé publique d'un autre nom que celui de la séance", "La clé publique ne porte pas le nom prévu pour la séance.", "Vérifiez avec l'apprenant que c'est bien la clé de la séance.", "Vérifiez que c'est bien la clé créée pour la séance (« pret cle » la crée sous le bon nom).", docElements},
	{CodeMissingFingerprint, SevError, "Aucune empreinte SHA256", "Le fichier ne donne pas l'empreinte SHA256 de la clé.", "Demandez à l'apprenant de recopier la sortie de « ssh-keygen -lf » sur sa clé publique.", "Recopiez la ligne que donne « ssh-keygen -lf » sur votre clé publique (ou « pret empreinte »).", docElements},
	{CodeBadFingerprint, SevError, "Empreinte mal formée ou MD5", "L'empreinte n'est pas une empreinte SHA256 bien formée (ou c'est une empreinte MD5).", "Demandez à l'apprenant de recopier l'empreinte SHA256 donnée par « ssh-keygen -lf ».", "Recopiez telle quelle l'empreinte SHA256 que donne « ssh-keygen -lf » (ou « pret empreinte »).", docElements},
	{CodeMultipleFingerprints, SevError, "Plusieurs empreintes différentes", "Le fichier donne plusieurs empreintes différentes : on ne sait pas laquelle est la bonne.", "Demandez à l'apprenant de ne garder que l'empreinte de sa clé.", "Ne gardez que l'empreinte de votre clé de la séance.", docElements},
	{CodeWrongType, SevError, "Type de clé autre qu'ed25519", "Le type de clé indiqué n'est pas ed25519.", "Demandez à l'apprenant de créer une clé ed25519.", "Créez une clé ed25519 (« pret cle »), puis réécrivez acces.md.", docElements},
	{CodeMissingType, SevError, "Type de clé non indiqué", "Le fichier n'indique pas le type de la clé.", "Demandez à l'apprenant de recopier la ligne entière de « ssh-keygen -lf », type compris.", "Recopiez la ligne entière de « ssh-keygen -lf », type (ED25519) compris.", docElements},
	{CodeBadKeyType, SevError, "Clé d'un autre type que celui indiqué", "Le fichier indique une clé ed25519, mais la clé publique à côté ou collée, ou la clé qui l'a signé, est d'un autre type.", "Demandez à l'apprenant de donner et de signer avec sa clé ed25519.", "Donnez votre clé ed25519 et signez avec elle.", docSecrets},
	{CodeAlteredSentence, SevError, "Phrase d'engagement modifiée", "La phrase d'engagement est là, mais un mot a été changé, retiré ou ajouté.", "Demandez à l'apprenant de recopier la phrase telle quelle, seule dans son paragraphe.", "Recopiez la phrase d'engagement telle quelle, seule dans son paragraphe.", docElements},
	{CodeMissingSentence, SevError, "Phrase d'engagement absente", "Le fichier ne contient pas la phrase d'engagement.", "Demandez à l'apprenant de recopier la phrase d'engagement.", "Recopiez la phrase d'engagement du cours, seule dans son paragraphe.", docElements},
	{CodePrivateKeyLeak, SevError, "Clé privée dans le fichier", "Le fichier contient une clé privée : quiconque l'a lu peut se connecter à la place de l'apprenant.", "Incident : " + leakIncident + ", et supprimez ce fichier des rendus.", "Votre clé privée a été envoyée : elle est compromise. Créez-en une nouvelle (« pret cle »), et ne rendez que acces.md.", docSecrets},
	{CodeFingerprintMismatch, SevError, "Empreinte différente de celle de la clé publique", "L'empreinte indiquée n'est pas celle de la clé publique collée ou posée à côté du fichier.", "Demandez à l'apprenant quelle clé est la bonne, et de recopier son empreinte.", "Recopiez l'empreinte de la clé que vous donnez (« pret empreinte »).", docSecrets},
	{CodeBadPublicKey, SevWarning, "Clé publique illisible", "Une clé publique collée dans le fichier, ou posée à côté, ne se lit pas.", "Demandez à l'apprenant de redonner sa clé publique, sans la modifier.", "Redonnez votre clé publique (le fichier .pub) sans la modifier.", docSecrets},
	{CodeDuplicateFingerprint, SevError, "Même empreinte chez plusieurs apprenants", "La même empreinte figure chez plusieurs apprenants : deux personnes ne partagent pas une clé.", "Demandez à chacun sa propre clé ; une copie du fichier d'un autre est possible.", "Donnez l'empreinte de votre propre clé : deux personnes ne partagent pas une clé.", docSecrets},
	{CodeUnreadable, SevError, "Fichier ou dossier illisible", "Le fichier ou le dossier n'a pas pu être lu.", "Vérifiez les droits et le téléchargement, puis relancez la validation.", "Votre fichier n'a pas pu être lu : rendez-le de nouveau.", docFile},
	{CodeTooLarge, SevError, "Fichier trop grand pour une page", "Le fichier dépasse 16 Kio (ou une ligne ouvre plus de 16 citations ou listes) : il n'est pas lu comme une page Markdown, seulement pour y chercher une clé privée ; au-delà de 1 Mio, il n'est pas lu du tout.", "Demandez à l'apprenant un acces.md d'une page.", "Rendez un acces.md d'une page, avec seulement ce que le cours demande.", docFile},
	{CodeNotText, SevError, "Pas un fichier texte UTF-8", "Le fichier n'est pas du texte UTF-8 (un octet nul ou un autre encodage).", "Demandez à l'apprenant d'enregistrer le fichier en texte UTF-8.", "Enregistrez acces.md en texte UTF-8 (« pret acces » l'écrit ainsi).", docFile},
	{CodeNoAccesMD, SevError, "Aucun acces.md lisible dans le rendu", "Le rendu Moodle ne contient pas d'acces.md lisible (un autre fichier a été envoyé).", "Demandez à l'apprenant de rendre un fichier acces.md en texte.", "Rendez un fichier texte nommé acces.md, ou collez son texte dans le texte en ligne (pas un document Word, OpenDocument ou PDF, ni une image).", docFile},
	{CodeNoSubmission, SevError, "Aucun rendu", "L'apprenant est inscrit mais n'a rien rendu.", "Écrivez à l'apprenant.", "Rendez votre fichier acces.md dans ce devoir.", docWorksheet},
	{CodeUnsigned, SevError, "Rendu sans signature valide", "Le fichier n'est pas signé, alors que la signature est exigée.", "Demandez à l'apprenant de signer son fichier avec « pret signer ».", "Signez votre fichier avec « pret signer », puis rendez-le de nouveau.", docSignature},
	{CodeBadSignature, SevError, "Signature fausse", "La signature ne correspond pas au fichier : il a été modifié après la signature, ou elle est mal formée.", "Demandez à l'apprenant de signer de nouveau son fichier avec « pret signer ».", "Signez de nouveau votre fichier avec « pret signer », sans le modifier ensuite.", docSignature},
	{CodeSignatureKeyMismatch, SevError, "Signature faite avec une autre clé", "Le fichier est signé avec une autre clé que celle dont il donne l'empreinte.", "Demandez à l'apprenant de signer avec la clé dont il donne l'empreinte.", "Signez avec la clé dont vous donnez l'empreinte (« pret signer »).", docSignature},

	{CodeSbatchShebang, SevError, "Première ligne autre que #!/bin/bash", "La première ligne de sommeil.sbatch n'est pas exactement #!/bin/bash.", "Faites recopier la première ligne des notes.", "Commencez sommeil.sbatch par la ligne #!/bin/bash, seule.", docSbatch},
	{CodeSbatchCRLF, SevError, "Fins de ligne Windows (CRLF)", "Le script a des fins de ligne CRLF : sbatch le refuse.", "Faites enregistrer le script avec des fins de ligne LF.", "Enregistrez sommeil.sbatch avec des fins de ligne LF (Unix) : sbatch refuse les CRLF.", docSbatch},
	{CodeSbatchMissingOption, SevError, "Option #SBATCH manquante", "Une des options des notes (--job-name, --output, --time, --cpus-per-task, --mem) n'est pas en vigueur.", "Faites ajouter l'option manquante, telle que dans les notes.", "Ajoutez la ligne #SBATCH manquante, telle que dans les notes.", docSbatch},
	{CodeSbatchWrongValue, SevError, "Option #SBATCH d'une autre valeur", "Une option est en vigueur avec un autre sens que dans les notes (un autre nom, une autre durée, 2 CPU, 2G).", "Faites corriger la valeur, telle que dans les notes.", "Corrigez la valeur de l'option, telle que dans les notes.", docSbatch},
	{CodeSbatchSpelling, SevWarning, "Option écrite autrement que dans les notes", "L'option a le même sens que dans les notes, écrit autrement (--time=2, -J sommeil).", "À relire : le sens est le bon.", "Le sens est le bon ; écrivez l'option comme dans les notes pour qu'elle se relise d'un coup d'œil.", docSbatch},
	{CodeSbatchIgnoredDirective, SevError, "Directive #SBATCH ignorée par Slurm", "Une ligne #SBATCH vient après la première commande, est indentée ou d'une autre casse : Slurm l'ignore.", "Faites remonter la directive avant la première commande.", "Mettez chaque ligne #SBATCH avant la première commande, en début de ligne, en majuscules.", docSbatch},
	{CodeSbatchShellVariable, SevError, "Variable du shell dans une directive", "Une directive contient $ : Slurm ne le remplace pas.", "Faites écrire la valeur elle-même.", "Écrivez la valeur elle-même dans la directive : Slurm ne remplace pas $.", docSbatch},
	{CodeSbatchCommands, SevError, "Commandes autres que hostname puis sleep 30", "Les commandes ne sont pas exactement hostname puis sleep 30, une par ligne.", "Faites recopier les deux commandes des notes.", "Écrivez les commandes hostname puis sleep 30, une par ligne.", docSbatch},
	{CodeSbatchTimeZero, SevError, "Durée nulle ou illimitée", "La limite de temps vaut zéro ou est illimitée.", "Faites écrire --time=00:02:00.", "Écrivez --time=00:02:00, la limite des notes.", docSbatch},
	{CodeSbatchMemConflict, SevError, "Deux façons de demander la mémoire", "Le script donne deux de --mem, --mem-per-cpu et --mem-per-gpu : Slurm les refuse ensemble.", "Faites garder seulement --mem=1G.", "Gardez seulement --mem=1G.", docSbatch},
	{CodeSbatchRefusedDirective, SevError, "Directive #SBATCH refusée par sbatch", "Une directive #SBATCH que sbatch refuse, et le script avec : une option inconnue ou abrégée de façon ambiguë, une valeur qui manque ou qui est en trop, un mot qui n'est pas une option, un guillemet non refermé.", "Faites corriger la directive nommée, telle que dans les notes.", "Corrigez la directive nommée, telle que dans les notes : sbatch refuse le script tant qu'elle reste ainsi.", docSbatch},
	{CodeSbatchUnrequestedOption, SevError, "Partition ou compte non demandé", "Le script donne --partition ou --account que les organisateurs n'ont pas donné, ou sous un autre nom.", "Faites retirer l'option, ou donnez la partition et le compte de la séance.", "Retirez --partition et --account, ou écrivez ceux que les organisateurs ont donnés.", docSbatch},
	{CodeSbatchMissing, SevError, "sommeil.sbatch absent", "Le dossier ne contient pas sommeil.sbatch.", "Faites écrire le script (« pret modele sommeil.sbatch »).", "Écrivez sommeil.sbatch (« pret modele sommeil.sbatch » écrit les huit lignes des notes).", docSbatch},
	{CodeExplicationOrder, SevError, "Ligne du script non expliquée à sa place", "L'explication ne nomme pas, dans l'ordre, le sujet de chaque ligne du script.", "À relire : une phrase par ligne du script, dans l'ordre.", "Expliquez chaque ligne du script par une phrase, dans l'ordre, shebang compris.", docExplain},
	{CodeExplicationMissing, SevError, "Ni explication.md ni lignes.md", "Le dossier ne contient ni explication.md ni lignes.md.", "Faites écrire l'explication du script.", "Écrivez explication.md : une phrase par ligne du script, dans l'ordre.", docExplain},
	{CodeLignesAnswers, SevWarning, "Réponse courte introuvable", "Une des trois réponses courtes de l'exercice 1 semble absente de lignes.md.", "À relire : la réponse est peut-être écrite autrement.", "Vérifiez que lignes.md répond aux trois questions courtes de l'exercice 1.", docExplain},
	{CodeYAMLSyntax, SevError, "YAML invalide", "Le fichier n'est pas du YAML valide, ou une valeur n'a pas le type que l'API attend.", "Faites corriger le YAML à l'endroit nommé.", "Corrigez le YAML à l'endroit nommé (indentation, type de la valeur).", docJob},
	{CodeYAMLUnknownField, SevError, "Champ inconnu de l'API Job", "Un champ n'existe pas dans l'API Job (la casse compte : restartpolicy).", "Faites corriger le nom du champ.", "Corrigez le nom du champ, casse comprise (restartPolicy).", docJob},
	{CodeYAMLSecondDocument, SevError, "Second document YAML", "Le fichier contient un second document YAML après --- : kubectl apply -f le créerait aussi.", "Faites garder le Job seul dans le fichier.", "Gardez le Job seul dans sommeil-job.yaml : kubectl apply -f créerait aussi tout document après ---.", docJob},
	{CodeJobKind, SevError, "Pas un Job", "Le fichier n'est pas kind: Job ; un Deployment relance hostname; sleep 30 sans fin.", "Faites écrire kind: Job.", "Écrivez kind: Job : un Deployment relance le conteneur sans fin.", docJob},
	{CodeJobAPIVersion, SevError, "apiVersion autre que batch/v1", "apiVersion n'est pas batch/v1.", "Faites écrire apiVersion: batch/v1.", "Écrivez apiVersion: batch/v1.", docJob},
	{CodeJobName, SevError, "Job d'un autre nom que sommeil", "metadata.name n'est pas sommeil.", "Faites nommer le Job sommeil.", "Nommez le Job sommeil (metadata.name).", docJob},
	{CodeJobBackoffLimit, SevError, "backoffLimit autre que celui du cours", "backoffLimit n'est pas 0 (notes, projet de groupe) ou 1 (exercice 3).", "Faites écrire la valeur de l'exercice.", "Écrivez backoffLimit: 0 (notes, projet de groupe) ou 1 (exercice 3).", docJob},
	{CodeJobDeadline, SevError, "activeDeadlineSeconds autre que 120", "activeDeadlineSeconds n'est pas 120.", "Faites écrire activeDeadlineSeconds: 120.", "Écrivez activeDeadlineSeconds: 120.", docJob},
	{CodeJobRestartPolicy, SevError, "restartPolicy autre que Never", "restartPolicy n'est pas Never.", "Faites écrire restartPolicy: Never.", "Écrivez restartPolicy: Never (OnFailure relancerait le conteneur dans le même pod).", docJob},
	{CodeJobCommand, SevError, "Commande du conteneur autre que celle du cours", "La commande du conteneur n'est pas sh, -c, « hostname; sleep 30 ».", "Faites recopier la commande des notes.", "Écrivez la commande sh, -c, « hostname; sleep 30 ».", docJob},
	{CodeJobImage, SevWarning, "Image autre que busybox:1.36", "L'image n'est pas busybox:1.36 ; elle doit fournir sh, hostname et sleep.", "À relire : l'image doit fournir sh, hostname et sleep.", "Vérifiez que l'image fournit sh, hostname et sleep (le cours prend busybox:1.36).", docJob},
	{CodeJobPriorityClass, SevError, "priorityClassName donné", "Le Job donne un priorityClassName ; celui du module n'en fixe pas.", "Faites retirer priorityClassName.", "Retirez priorityClassName : le Job du module n'en fixe pas.", docJob},
	{CodeJobQueueLabel, SevError, "Label de file Kueue", "Le Job porte le label kueue.x-k8s.io/queue-name ; le module n'installe pas Kueue.", "Faites retirer le label.", "Retirez le label kueue.x-k8s.io/queue-name : le module n'installe pas Kueue.", docJob},
	{CodeJobSuspend, SevError, "Job suspendu", "Le Job est suspend: true : il ne démarrerait pas.", "Faites retirer suspend: true.", "Retirez suspend: true : sans Kueue, rien ne relâcherait le Job.", docJob},
	{CodeRefusKueue, SevError, "refus.md ne nomme pas Kueue", "refus.md ne nomme pas Kueue.", "À relire : une phrase doit nommer Kueue.", "Nommez Kueue dans refus.md, et rappelez que le module ne l'installe pas.", docAnswers},
	{CodeRefusRestart, SevWarning, "refus.md ne dit pas que le Deployment relance", "refus.md ne semble pas dire que le Deployment relance le conteneur quand sleep sort avec 0.", "À relire : l'idée est peut-être dite autrement.", "Dites ce que fait le Deployment quand sleep sort avec 0 : il relance le conteneur.", docAnswers},
	{CodeDecisionScancel, SevError, "Commande d'arrêt du job 51 absente ou trop large", "decision.md n'arrête pas le job 51 seul avec scancel 51 (ou emploie scancel -u).", "À relire : scancel 51, jamais scancel -u.", "Arrêtez le job 51 seul avec scancel 51 : scancel -u annule tous vos jobs.", docAnswers},
	{CodeComparaisonParagraphs, SevError, "comparaison.md sans ses quatre paragraphes", "comparaison.md n'a pas quatre paragraphes : démarrage, arrêt, sortie, second passage.", "À relire : quatre paragraphes.", "Écrivez quatre paragraphes : démarrage, arrêt, sortie, second passage.", docAnswers},
	{CodeComparaisonKueue, SevError, "comparaison.md ne nomme pas Kueue à la fin", "La dernière phrase de comparaison.md ne nomme pas Kueue.", "À relire : la dernière phrase nomme Kueue.", "Terminez par une phrase qui nomme Kueue et dit que cette file n'est pas installée.", docAnswers},
}

// Info is what Codes says of c. Every code is registered (TestCodesRegistered):
// one that is not is a bug of pret, not something to print.
func Info(c Code) CodeInfo {
	if i := slices.IndexFunc(Codes, func(info CodeInfo) bool { return info.Code == c }); i >= 0 {
		return Codes[i]
	}
	panic(fmt.Sprintf("checklist: problem code %q is not in Codes", c))
}

// LeakProblem names the lines, never quotes them.
func LeakProblem(lines []int) Problem {
	return Problem{Code: CodePrivateKeyLeak, Severity: SevError, Line: lines[0],
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
