package main

import "github.com/spf13/cobra"

func (a *app) accesCommand() *cobra.Command                      { return &cobra.Command{Use: "acces"} }
func (a *app) verifierCommand() *cobra.Command                   { return &cobra.Command{Use: "verifier"} }
func (a *app) validerCommand() *cobra.Command                    { return &cobra.Command{Use: "valider"} }
func (a *app) runWizard(cmd *cobra.Command, args []string) error { return nil }
