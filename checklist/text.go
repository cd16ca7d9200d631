package checklist

import "github.com/romeo-pret/pret/internal/textfold"

// Fold makes two spellings of the same French words equal: NFD with the
// combining marks dropped, lower case, œ → oe, runs of white space → one
// space (textfold.Fold, shared with the typed dates).
func Fold(s string) string { return textfold.Fold(s) }
