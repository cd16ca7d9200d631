package templates

import (
	_ "embed"
	"maps"
	"slices"
)

var (
	//go:embed sommeil.sbatch
	sommeilSbatch []byte
	//go:embed sommeil-job.yaml
	sommeilJob []byte
)

// Models are the notes' files that `pret modele` writes, by file name.
var models = map[string][]byte{
	"sommeil.sbatch":   sommeilSbatch,
	"sommeil-job.yaml": sommeilJob,
}

// Model returns the notes' content for a deliverable's file name.
func Model(name string) ([]byte, bool) {
	b, ok := models[name]
	return append([]byte(nil), b...), ok
}

// ModelNames lists the files `pret modele` knows.
func ModelNames() []string { return slices.Sorted(maps.Keys(models)) }
