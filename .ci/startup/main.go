// Command startup measures the wall time of short commands by running
// them in alternation: one run of each per round, in a rotated order, so
// that a slow moment of the machine falls on every command alike. It
// prints the median and quartiles of each, and the ratio of each median
// to the first command's. docs/tests.md uses it for the start-up
// figures and for the 100,000-file ratio to grep -rc.
//
//	go run ./.ci/startup -n 400 -- ssh-keygen -lf k.pub -- ./pret empreinte k.pub
//	go run ./.ci/startup -n 9 -w 1 -- grep -rc Clé rendus -- ./pret valider --format json rendus
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

func main() {
	n := flag.Int("n", 300, "rounds")
	warm := flag.Int("w", 20, "warm-up rounds, not counted")
	flag.Parse()
	var cmds [][]string
	for _, a := range flag.Args() {
		if a == "--" || len(cmds) == 0 {
			cmds = append(cmds, nil)
			if a == "--" {
				continue
			}
		}
		cmds[len(cmds)-1] = append(cmds[len(cmds)-1], a)
	}
	cmds = slices.DeleteFunc(cmds, func(c []string) bool { return len(c) == 0 })
	if len(cmds) == 0 {
		fmt.Fprintln(os.Stderr, "usage: startup [-n rounds] -- cmd args -- cmd args")
		os.Exit(2)
	}
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		panic(err)
	}
	times := make([][]time.Duration, len(cmds))
	for r := 0; r < *warm+*n; r++ {
		for k := range cmds {
			i := (r + k) % len(cmds)
			c := exec.Command(cmds[i][0], cmds[i][1:]...)
			c.Stdout, c.Stderr = devnull, devnull
			start := time.Now()
			// A non-zero exit is a result, not a failure: pret valider
			// exits 1 when a submission is invalid.
			if err := c.Run(); err != nil && c.ProcessState == nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", strings.Join(cmds[i], " "), err)
				os.Exit(1)
			}
			if r >= *warm {
				times[i] = append(times[i], time.Since(start))
			}
		}
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	var base time.Duration
	for i, ts := range times {
		slices.Sort(ts)
		med := ts[len(ts)/2]
		if i == 0 {
			base = med
		}
		fmt.Printf("%-60s median %6.3f ms  q1 %6.3f  q3 %6.3f  ×%.3f of first\n",
			strings.Join(cmds[i], " "), ms(med), ms(ts[len(ts)/4]), ms(ts[3*len(ts)/4]), float64(med)/float64(base))
	}
}
