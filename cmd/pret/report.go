package main

import (
	"bytes"
	"io"

	"github.com/spf13/cobra"

	"github.com/romeo-pret/pret/checklist"
)

// reportFlags are the output flags of the commands that print a report.
type reportFlags struct {
	format string
	strict bool
}

// add gives c --format (one of formats) and --strict.
func (f *reportFlags) add(c *cobra.Command, formats []string) {
	choiceFlag(c, &f.format, "format", "texte", "format", formats, "`FORMAT` de sortie : "+frenchList(formats))
	c.Flags().BoolVar(&f.strict, "strict", false, "compter les avertissements comme des erreurs")
}

// writeReport prints a checklist; exit 1 unless it passes.
func writeReport(ios *iostreams, report *checklist.Report, f reportFlags) error {
	if err := writeHuman(ios, f.format, func(w io.Writer) error {
		return checklist.WriteReport(w, f.format, report, checklist.Style{Color: ios.Color()})
	}); err != nil {
		return err
	}
	if !report.OK(f.strict) {
		return &silentExit{exitFailed}
	}
	return nil
}

// writeHuman writes a report, wrapped on a terminal in the texte format.
func writeHuman(ios *iostreams, format string, write func(io.Writer) error) error {
	if format != "texte" || !ios.outTTY {
		return write(ios.Out) // the report streams, held nowhere whole
	}
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	_, err := io.WriteString(ios.Out, ios.Wrap(buf.String()))
	return err
}
